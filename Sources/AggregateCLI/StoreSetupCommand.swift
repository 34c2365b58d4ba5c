import App
import ArgumentParser
import Foundation

/// `aggregate store info|migrate`: the store this environment and manifest use (`AGGREGATE_STORE`, the
/// manifest's `store.url`, else SQLite in the data directory), opened and described.
struct StoreSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Show which store is used, or create/upgrade its schema (also done on first use).",
        subcommands: [Info.self, Migrate.self])

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info", abstract: "Which store (SQLite file or PostgreSQL URL without its password), its schema.")

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws { try StoreSetupCommand.report(manifestOptions) }
    }

    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate", abstract: "Create or upgrade the store's schema, then describe it.")

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws { try StoreSetupCommand.report(manifestOptions) }
    }

    /// Opening the store migrates it: both commands are that, then the description (exit 1 when unusable).
    static func report(_ options: ManifestOptions) throws {
        let url = FileManager.default.fileExists(atPath: options.manifestURL.path) ? options.manifestURL : nil
        let report = StoreSetup.describe(manifestAt: url)
        if !report.lines.isEmpty { print(report.lines.joined(separator: "\n")) }
        for problem in report.problems {
            Terminal.writeError("aggregate: \(report.ok ? "warning" : "error"): \(problem)\n")
        }
        if !report.ok { throw ExitCode(1) }
    }
}
