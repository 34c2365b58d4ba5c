import App
import ArgumentParser
import Domain
import Foundation

/// `aggregate sinks status|retry|drop`: the deliveries waiting in the outbox.
struct SinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sinks",
        abstract: "Show and manage the deliveries of the manifest's sinks (webhooks, programs).",
        discussion: """
            Every run (and every watch cycle) queues the items that are new for a sink in the store's outbox, \
            then sends what is pending, oldest first; a delivery keeps its id on every attempt. A receiver that \
            is down loses nothing: the next run sends what waits. A delivery the receiver refused (a 4xx other \
            than 429) is 'failed' and waits for 'retry' or 'drop'.

            EXAMPLES
              aggregate sinks status                 counts per sink, then every undelivered delivery
              aggregate sinks retry team-hook        every failed delivery of team-hook is due again
              aggregate sinks retry 3f2a…            one delivery (its id, from status)
              aggregate sinks drop team-hook --yes   never send team-hook's undelivered deliveries
            """,
        subcommands: [Status.self, Retry.self, Drop.self])

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "Pending, failed and delivered counts per sink, and each undelivered delivery.")

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let store = try StoreOptions.openStore(manifestOptions)
            let (counts, deliveries) = try SinksCommand.reading { () throws(SourceError) in
                (try store.sinkCountRows(), try store.undeliveredRows())
            }
            guard counts.count > 1 else {
                print("No deliveries: no sink has queued anything in \(store.location).")
                return
            }
            print(TextColumns.format(counts), terminator: "")
            if !deliveries.isEmpty { print("\n" + TextColumns.format(deliveries), terminator: "") }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry", abstract: "Make failed deliveries due again (sent by the next run or watch cycle).")

        @Argument(help: ArgumentHelp("A delivery id, or a sink id for all of its undelivered deliveries.", valueName: "id"))
        var id: String

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let store = try StoreOptions.openStore(manifestOptions)
            print(try SinksCommand.reading { () throws(SourceError) in try store.retryDeliveries(id) })
        }
    }

    struct Drop: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "drop", abstract: "Remove undelivered deliveries from the outbox: they are never sent.")

        @Argument(help: ArgumentHelp("A delivery id, or a sink id for all of its undelivered deliveries.", valueName: "id"))
        var id: String

        @Flag(name: .long, help: "Do not ask for confirmation.")
        var yes = false

        @OptionGroup var manifestOptions: ManifestOptions

        func run() throws {
            let store = try StoreOptions.openStore(manifestOptions)
            let matching = try SinksCommand.reading { () throws(SourceError) in try store.undeliveredDeliveries(matching: id) }
            guard !matching.isEmpty else {
                print("No undelivered delivery matches '\(id)'.")
                return
            }
            if !yes, !confirmed(matching) {
                Terminal.writeError("aggregate: nothing dropped\n")
                throw ExitCode(ExitStatus.sourcesFailed)
            }
            print(try SinksCommand.reading { () throws(SourceError) in try store.dropDeliveries(id) })
        }

        /// Asks on stderr, reads the answer from stdin: only "y" or "yes" drops.
        private func confirmed(_ matching: [SinkDeliverySummary]) -> Bool {
            let items = matching.reduce(0) { $0 + $1.itemCount }
            let sinks = Set(matching.map(\.sink)).sorted().joined(separator: ", ")
            Terminal.writeError("Drop \(matching.count) undelivered \(matching.count == 1 ? "delivery" : "deliveries") "
                + "(\(items) items) of \(sinks)? They will never be sent. [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
            return answer == "y" || answer == "yes"
        }
    }
}

extension SinksCommand {
    /// `work` on the store; a store error is told on stderr and exits 1.
    static func reading<T>(_ work: () throws(SourceError) -> T) throws -> T {
        do throws(SourceError) {
            return try work()
        } catch {
            Terminal.writeError("aggregate: \(error.message)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
    }
}
