import App
import ArgumentParser
import Foundation
import Logging
import ProviderKit

/// `--manifest` and how a command turns it into a composition root.
struct ManifestOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The manifest to read (default: $AGGREGATE_MANIFEST, else ./manifest.json).", valueName: "path"))
    var manifest: String?

    var manifestURL: URL {
        let path = manifest ?? ProcessInfo.processInfo.environment["AGGREGATE_MANIFEST"] ?? "manifest.json"
        // A file: `isDirectory: false` spares the `stat` that asks. `~` is expanded only when there is one (the
        // bridge to NSString costs more than the rest of this).
        let expanded = path.hasPrefix("~") ? (path as NSString).expandingTildeInPath : path
        return URL(fileURLWithPath: expanded, isDirectory: false)
    }

    var displayPath: String {
        manifest ?? ProcessInfo.processInfo.environment["AGGREGATE_MANIFEST"] ?? "manifest.json"
    }

    /// Loads and validates the manifest; an invalid one prints every problem and exits 78.
    /// - Parameter selection: `--sources` of a command that runs sources: only their options are checked.
    func loadContainer(logger: Logger = Logger(label: "aggregate"), selection: [String]? = nil) throws -> AppDIContainer {
        do throws(ManifestError) {
            return try AppDIContainer.load(
                manifestAt: manifestURL, registry: ActiveProviders.registry, logger: logger, selection: selection)
        } catch {
            var message = "error: \(displayPath) is invalid:\n"
            for problem in error.problems {
                message += "  \(problem)\n"
            }
            Terminal.writeError(message)
            throw ExitCode(ExitStatus.invalidManifest)
        }
    }
}

enum ExitStatus {
    static let sourcesFailed: Int32 = 1
    static let usage: Int32 = 64
    /// An input file that is not what it should be (a malformed OPML file).
    static let dataError: Int32 = 65
    /// An input file that cannot be read.
    static let noInput: Int32 = 66
    static let invalidManifest: Int32 = 78
}
