import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory new-provider --name "Tech Digest" --capability records`
///
/// Creates `Sources/<Name>Provider/` and `Tests/<Name>ProviderTests/` for a new HTTP provider and prints the
/// lines that register it. The templates live in the `ProviderScaffold` library (tested like any other code);
/// this plugin parses the arguments and runs the `provider-scaffold` tool, which writes the files.
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
        guard extractor.remainingArguments.isEmpty else {
            throw NewProviderError.unexpectedArguments(extractor.remainingArguments)
        }
        guard let name = names.last, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw NewProviderError.missingName
        }
        guard let capability = capabilities.last else { throw NewProviderError.missingCapability }

        let tool = try context.tool(named: "provider-scaffold")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = [context.package.directoryURL.path, name, capability] + (providerNames.last.map { [$0] } ?? [])
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NewProviderError.scaffoldFailed(message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    static let usage = """
        USAGE: swift package --allow-writing-to-package-directory new-provider --name <name> --capability <capability>

        OPTIONS:
          --name <name>                 Letters, digits and spaces, such as "Tech Digest" (types TechDigest…,
                                        target TechDigestProvider, manifest name tech-digest).
          --capability <capability>     records, weather, issues, movies or feed: the Domain repository to implement.
          --provider-name <name>        The manifest's "provider" value, if not the derived one (hn).
        """
}

/// Why the plugin stopped; each description says what to do.
enum NewProviderError: Error, CustomStringConvertible {
    case missingName
    case missingCapability
    case unexpectedArguments([String])
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
        case .scaffoldFailed(let message):
            message.isEmpty ? "nothing was created" : message.replacingOccurrences(of: "error: ", with: "") + "; nothing was created"
        }
    }
}
