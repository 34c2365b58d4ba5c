import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-provider --name "Tech Digest" --capability records`
///
/// Creates `Sources/<Name>Provider/` and `Tests/<Name>ProviderTests/` for a new HTTP provider and prints the
/// lines that register it. With `--standalone DIR` (and `--allow-writing-to-directory DIR` as well) it creates a
/// package of its own in DIR instead, depending on this checkout by path (on a repository by version with `--url`),
/// with its tests and a custom `aggregate` executable. The templates live in the `ProviderScaffold` library (tested like any other code); this plugin
/// parses the arguments and runs the `provider-scaffold` tool, which writes the files.
@main
struct NewProvider: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        if extractor.extractFlag(named: "help") > 0 {
            print(Self.usage)
            return
        }
        let names = extractor.extractOption(named: "name")
        let capabilities = extractor.extractOption(named: "capability")
        let providerNames = extractor.extractOption(named: "provider-name")
        let standalone = extractor.extractOption(named: "standalone")
        let urls = extractor.extractOption(named: "url")
        let versions = extractor.extractOption(named: "from")
        guard extractor.remainingArguments.isEmpty else {
            throw NewProviderError.unexpectedArguments(extractor.remainingArguments)
        }
        guard let name = names.last, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw NewProviderError.missingName
        }
        guard let capability = capabilities.last else { throw NewProviderError.missingCapability }
        if standalone.isEmpty, !urls.isEmpty || !versions.isEmpty { throw NewProviderError.dependencyWithoutStandalone }

        let tool = try context.tool(named: "provider-scaffold")
        let process = Process()
        process.executableURL = tool.url
        var arguments = [context.package.directoryURL.path, name, capability]
        if let providerName = providerNames.last { arguments.append(providerName) }
        if let directory = standalone.last {
            arguments += ["--standalone", Self.resolve(directory, against: context.package.directoryURL)]
        }
        if let url = urls.last { arguments += ["--url", url] }
        if let version = versions.last { arguments += ["--from", version] }
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NewProviderError.scaffoldFailed(message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// A relative `--standalone` directory is taken from the package directory, where `swift package` runs.
    static func resolve(_ path: String, against directory: URL) -> String {
        path.hasPrefix("/") ? path : directory.appendingPathComponent(path).standardizedFileURL.path
    }

    static let usage = """
        USAGE: swift package --allow-writing-to-package-directory new-provider --name <name> --capability <capability>
               swift package --allow-writing-to-package-directory --allow-writing-to-directory <dir> \\
                   new-provider --name <name> --capability <capability> --standalone <dir> [--url <url>] [--from <version>]

        OPTIONS:
          --name <name>                 Letters, digits and spaces, such as "Tech Digest" (types TechDigest…,
                                        target TechDigestProvider, manifest name tech-digest).
          --capability <capability>     records, weather, issues, movies or feed: the Domain repository to implement.
          --provider-name <name>        The manifest's "provider" value, if not the derived one (hn).
          --standalone <dir>            Create a package of its own in <dir> (new or without a Package.swift): the
                                        provider, its tests and <provider>-aggregate, aggregate with it added.
          --url <url>                   Depend on aggregate at <url> by version, the form to publish with (default:
                                        this checkout by path, which needs no tag).
          --from <version>              The lowest aggregate version it accepts by URL (default: this one); alone, by
                                        version from this checkout's file:// URL, which then needs that tag.
        """
}

/// Why the plugin stopped; each description says what to do.
enum NewProviderError: Error, CustomStringConvertible {
    case missingName
    case missingCapability
    case unexpectedArguments([String])
    case dependencyWithoutStandalone
    /// The tool's own explanation (`error: … already exists; refusing to overwrite it`).
    case scaffoldFailed(String)

    var description: String {
        switch self {
        case .missingName:
            "give the provider a name: --name \"Tech Digest\"\n\n\(NewProvider.usage)"
        case .missingCapability:
            "say what it delivers: --capability records|weather|issues|movies|feed\n\n\(NewProvider.usage)"
        case .unexpectedArguments(let arguments):
            "unexpected arguments: \(arguments.joined(separator: " "))\n\n\(NewProvider.usage)"
        case .dependencyWithoutStandalone:
            "--url and --from describe a --standalone package's dependency: add --standalone <dir>\n\n\(NewProvider.usage)"
        case .scaffoldFailed(let message):
            message.isEmpty ? "nothing was created" : message.replacingOccurrences(of: "error: ", with: "") + "; nothing was created"
        }
    }
}
