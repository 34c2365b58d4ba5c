import App
import ArgumentParser
import Foundation
import ProviderKit

/// The registered providers and the options each accepts.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the registered providers and the options each accepts in a manifest.",
        discussion: "With a manifest (--manifest, $AGGREGATE_MANIFEST or ./manifest.json when it exists), its WebAssembly plugins too."
    )

    @OptionGroup var manifestOptions: ManifestOptions

    /// The built-in providers and the manifest's plugins; a manifest that cannot be read adds none (`validate` says why).
    private var registry: ProviderRegistry {
        let url = manifestOptions.manifestURL
        guard manifestOptions.manifest != nil || FileManager.default.fileExists(atPath: url.path),
              let loaded = try? ManifestLoader.loadCollecting(from: url, providers: ActiveProviders.registry.names)
        else { return ActiveProviders.registry }
        return ActiveProviders.registry.adding(plugins: loaded.0.plugins)
    }

    func run() throws {
        let width = max(60, min(Terminal.stdoutWidth ?? 100, 120))
        var output = ""
        for (index, provider) in registry.providers.enumerated() {
            if index > 0 { output += "\n" }
            let query = provider.acceptsQuery ? " Accepts --query." : ""
            output += "\(provider.name) — \(provider.summary)\(query)\n"
            for option in provider.options {
                let requirement = option.required ? "required" : option.defaultValue.map { "default: \($0)" } ?? "optional"
                let tuning = option.identity == .tuning ? ", tuning" : ""
                let secret = option.secret ? ", secret: or {\"fromFile\": PATH} / {\"fromCommand\": [...]}"
                    : option.secretValues ? ", each value secret: or {\"fromFile\": PATH} / {\"fromCommand\": [...]}" : ""
                output += "  \(option.name)  \(option.type)  (\(requirement)\(tuning)\(secret))\n"
                for line in TextColumns.wrap(option.help, width: width - 6) {
                    output += "      \(line)\n"
                }
            }
        }
        output += "\ntuning: changing the option keeps the source's history and last good copy; changing any other "
            + "option starts them afresh (docs/STORES.md: Cache, offline and history).\n"
        print(output, terminator: "")
    }
}
