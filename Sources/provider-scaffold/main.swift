import Foundation
import ProviderScaffold

// The `new-provider` plugin's worker: `provider-scaffold PACKAGE_DIR NAME CAPABILITY [PROVIDER_NAME]`.
// The plugin parses the user's arguments; this writes the files and prints the next steps. It can also be run
// directly (`swift run provider-scaffold . "Hacker News" records`) where plugins are unavailable.
let arguments = Array(CommandLine.arguments.dropFirst())
guard (3...4).contains(arguments.count) else {
    FileHandle.standardError.write(Data("usage: provider-scaffold PACKAGE_DIR NAME CAPABILITY [PROVIDER_NAME]\n".utf8))
    exit(64)
}
do throws(ScaffoldError) {
    let name = try ProviderName(arguments[1], providerName: arguments.count == 4 ? arguments[3] : nil)
    let scaffold = Scaffold(name: name, capability: try Capability(parsing: arguments[2]))
    let written = try scaffold.write(into: URL(fileURLWithPath: arguments[0]))
    print("Created the \(scaffold.capability.rawValue) provider \"\(name.providerName)\" (\(scaffold.capability.repositoryProtocol)):")
    for path in written { print("  \(path)") }
    print("")
    print(scaffold.nextSteps)
} catch {
    FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
    exit(1)
}
