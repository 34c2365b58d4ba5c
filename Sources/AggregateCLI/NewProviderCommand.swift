import App
import ArgumentParser
import Foundation
import ProviderScaffold

/// Scaffolds a provider outside the binary: a WebAssembly plugin in C, ready to build, test and declare.
struct NewProviderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-provider",
        abstract: "Create a WebAssembly plugin in C: source, ABI header, build script, manifest and test.",
        discussion: """
            A plugin is one .wasm file a manifest declares under "plugins"; sources then name it as their \
            provider. It runs sandboxed inside aggregate, reaches only its allowedHosts through aggregate's HTTP \
            client, and is bounded in fuel, memory and output (docs/PLUGINS.md).

            The folder gets NAME.c (emits "count" items; with "url", fetches it through the host), aggregate.h \
            (ABI v1), build.sh (the Swift toolchain's clang --target=wasm32-wasi and Debian's wasi-libc: \
            apt install wasi-libc), manifest.json (declares and uses the plugin) and test.sh (builds it, runs it \
            through aggregate, checks its items). Nothing is overwritten.

            A provider in Swift, built into the binary or into a package of its own, comes from the package \
            plugin instead: swift package new-provider --name NAME --capability records

            EXAMPLES
              aggregate new-provider --wasm acme                 ./acme/acme.c, build.sh, test.sh …
              aggregate new-provider --wasm acme --directory plugins/acme
              plugins/acme/test.sh                               build it, run it, check its items
            """
    )

    @Option(name: .customLong("wasm"), help: ArgumentHelp(
        "The plugin's name: lowercase letters and digits in words joined by hyphens (its sources' provider).",
        valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Where to write the plugin (default: ./NAME). Made if missing.", valueName: "dir"))
    var directory: String?

    func validate() throws {
        guard WasmPluginScaffold.isValidName(name) else {
            throw ValidationError(ScaffoldError.invalidProviderName(name).description)
        }
        if ActiveProviders.registry.names.contains(name) {
            throw ValidationError("'\(name)' is a built-in provider; a plugin needs a name of its own")
        }
    }

    func run() throws {
        let scaffold = try WasmPluginScaffold(name: name)
        let folder = directory ?? name
        let written = try scaffold.write(into: URL(fileURLWithPath: folder))
        Terminal.writeError("Created the WebAssembly plugin '\(name)' in \(folder):\n")
        for path in written { print((folder as NSString).appendingPathComponent(path)) }
        Terminal.writeError("\n" + scaffold.nextSteps(directory: folder) + "\n")
    }
}
