import ArgumentParser
import Foundation

/// `--sources`, shared by the commands that run sources (`run`, `watch`).
struct SourceSelection: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Comma-separated source ids (default: every enabled source). A named source runs even if disabled.",
            valueName: "ids"))
    var sources: [String] = []

    /// The ids named, or nil for every enabled source.
    var ids: [String]? {
        let ids = sources.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return ids.isEmpty ? nil : ids
    }

    func validate() throws {
        if !sources.isEmpty, ids == nil { throw ValidationError("--sources needs at least one source id.") }
    }
}
