import Foundation
import ProviderScaffold

// The `new-provider` plugin's worker:
//   provider-scaffold PACKAGE_DIR NAME CAPABILITY [PROVIDER_NAME] [--standalone DIR [--url URL] [--from VERSION]]
// The plugin parses the user's arguments; this writes the files and prints the next steps. It can also be run
// directly (`swift run provider-scaffold . "Hacker News" records`) where plugins are unavailable. With --standalone it
// writes a package of its own into DIR, depending on the checkout PACKAGE_DIR by path, or, given --url or --from, on
// aggregate at URL (default: PACKAGE_DIR) from VERSION (default: this version).
var arguments = Array(CommandLine.arguments.dropFirst())
/// Takes `--name VALUE` out of `arguments`, returning VALUE.
func extractOption(_ name: String, from arguments: inout [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...(index + 1)) }
    return arguments[index + 1]
}
let standalone = extractOption("--standalone", from: &arguments)
let url = extractOption("--url", from: &arguments)
let version = extractOption("--from", from: &arguments)
guard (3...4).contains(arguments.count), !arguments.contains(where: { $0.hasPrefix("--") }) else {
    FileHandle.standardError.write(Data(
        "usage: provider-scaffold PACKAGE_DIR NAME CAPABILITY [PROVIDER_NAME] [--standalone DIR [--url URL] [--from VERSION]]\n".utf8))
    exit(64)
}
do throws(ScaffoldError) {
    let name = try ProviderName(arguments[1], providerName: arguments.count == 4 ? arguments[3] : nil)
    let scaffold = Scaffold(name: name, capability: try Capability(parsing: arguments[2]))
    let summary = "the \(scaffold.capability.rawValue) provider \"\(name.providerName)\" (\(scaffold.capability.repositoryProtocol))"
    if let standalone {
        let package = StandalonePackage(scaffold: scaffold, dependency: .forScaffold(
            checkoutPath: arguments[0], url: url, version: version))
        let written = try package.write(into: URL(fileURLWithPath: standalone))
        print("Created the package \(package.packageName) in \(standalone) with \(summary):")
        for path in written { print("  \(path)") }
        print("")
        print(package.nextSteps(directory: standalone))
    } else {
        let written = try scaffold.write(into: URL(fileURLWithPath: arguments[0]))
        print("Created \(summary):")
        for path in written { print("  \(path)") }
        print("")
        print(scaffold.nextSteps)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    exit(1)
}
