import App
import ArgumentParser
import Foundation
import Persistence

/// `--source` and the store of `cache` and `history` subcommands (no manifest needed).
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Only this source id.", valueName: "id"))
    var source: String?

    /// The store in the data directory ($AGGREGATE_HOME, else $XDG_DATA_HOME/aggregate, else
    /// ~/.local/share/aggregate); warnings go to stderr, and no usable store exits 1.
    func open() throws -> AppDatabase {
        let (database, warnings) = AppDatabase.openRecovering(at: DataDirectory.resolve().databaseURL)
        for warning in warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
        guard let database else { throw ExitCode(ExitStatus.sourcesFailed) }
        return database
    }
}

/// `aggregate cache stats|clear`.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the HTTP response cache and the last good copies of sources.",
        subcommands: [Stats.self, Clear.self])

    struct Stats: ParsableCommand {
        // Every command names itself: the name derived from the type costs each run of any command a
        // `String(describing:)` of the metatype, i.e. 4 protocol-conformance scans of the whole binary.
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Per source: stored responses, size, ages, history.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let stats = try StoreMaintenance(database: options.open()).stats(sourceID: options.source)
            print(TextColumns.format(StoreReport.statsRows(stats)), terminator: "")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove stored responses and last good copies.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let removed = try StoreMaintenance(database: options.open()).clearCache(sourceID: options.source)
            print(StoreReport.cleared(removed, cache: true, sourceID: options.source))
        }
    }
}

/// `aggregate history clear`.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Manage the history of seen items behind --new.",
        subcommands: [Clear.self])

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Forget seen items: the next --new shows everything.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            let removed = try StoreMaintenance(database: options.open()).clearHistory(sourceID: options.source)
            print(StoreReport.cleared(removed, cache: false, sourceID: options.source))
        }
    }
}
