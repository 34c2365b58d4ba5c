import App
import ArgumentParser
import Domain
import Foundation
import Presentation

/// `--source` and the store of `cache` and `history` subcommands. No manifest is needed; when there is a
/// valid one, its sources count as known even before anything of theirs is stored.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Only this source id: one the store holds data for, or one the manifest defines.", valueName: "id"))
    var source: String?

    @OptionGroup var manifestOptions: ManifestOptions

    /// The store runs of this manifest use (`AGGREGATE_STORE`, else the manifest's `store.url`, else the data
    /// directory: $AGGREGATE_HOME, $XDG_DATA_HOME/aggregate or ~/.local/share/aggregate), with `--source`
    /// checked; warnings go to stderr, no usable store exits 1, and a source that names nothing exits 64.
    func open() throws -> StoreService {
        let service = try Self.openStore(manifestOptions)
        do throws(StoreSelectionError) {
            try service.check(source: source, manifestSources: manifestSourceIDs())
        } catch {
            throw ValidationError(error.description)
        }
        return service
    }

    /// The store runs of the manifest use (the manifest is optional); warnings go to stderr, and no usable
    /// store exits 1.
    static func openStore(_ manifestOptions: ManifestOptions) throws -> StoreService {
        let manifest = manifestOptions.manifestURL
        let (service, warnings, location) = StoreService.open(
            manifestAt: FileManager.default.fileExists(atPath: manifest.path) ? manifest : nil)
        for warning in warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
        guard let service else {
            Terminal.writeError("aggregate: \(location) cannot be opened\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        return service
    }

    /// The source ids of the manifest, or none when it is missing or invalid (these commands do not need it).
    private func manifestSourceIDs() -> [String] {
        guard FileManager.default.fileExists(atPath: manifestOptions.manifestURL.path) else { return [] }
        return (try? AppDIContainer.load(manifestAt: manifestOptions.manifestURL, registry: ActiveProviders.registry))?.manifest.sources.map(\.id) ?? []
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
            print(TextColumns.format(try options.open().statsRows(source: options.source)), terminator: "")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Remove stored responses and last good copies.")

        @OptionGroup var options: StoreOptions

        func run() throws {
            print(try options.open().clearCache(source: options.source))
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
            print(try options.open().clearHistory(source: options.source))
        }
    }
}

/// `aggregate archive stats|prune`.
struct ArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "archive",
        abstract: "Show or prune the item archive (every item runs saw; `aggregate search` reads it).",
        discussion: """
            Each source's items are kept for its `retention` (the manifest's `defaults.retention` or the \
            source's own: {"days": 90, "maxItemsPerSource": 10000} by default). Starred items stay whatever their \
            age. `watch`, `serve` and fleet workers prune in the background (after a run, at most every six hours); \
            a one-shot run does not: `archive prune` does it now (from cron, say).
            """,
        subcommands: [Stats.self, Prune.self])

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats", abstract: "Per source: archived items, unread, starred, oldest and newest.")

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let service = try StoreOptions.openStore(manifestOptions)
            do throws(SourceError) {
                let stats = try service.archiveStats()
                if stats.isEmpty {
                    Terminal.writeError("aggregate: the archive in \(service.location) is empty\n")
                } else {
                    print(TextColumns.format(StoreService.archiveStatsRows(stats)), terminator: "")
                }
            } catch {
                Terminal.writeError("aggregate: \(error.message)\n")
                throw ExitCode(ExitStatus.sourcesFailed)
            }
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune", abstract: "Remove the items each source's retention no longer keeps.")

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let service = try StoreOptions.openStore(manifestOptions)
            let manifest = FileManager.default.fileExists(atPath: manifestOptions.manifestURL.path)
                ? try manifestOptions.loadContainer().manifest : nil
            do throws(SourceError) {
                let removed = try service.pruneArchive(manifest: manifest)
                print("removed \(HumanFormat.count(removed, "item")) from the archive")
            } catch {
                Terminal.writeError("aggregate: \(error.message)\n")
                throw ExitCode(ExitStatus.sourcesFailed)
            }
        }
    }
}
