import App
import ArgumentParser
import Domain
import Foundation

/// `aggregate fleet status`: what the workers on a shared store are doing, read from the store.
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Show the fleet of workers sharing the PostgreSQL store.",
        subcommands: [FleetStatusCommand.self],
        defaultSubcommand: FleetStatusCommand.self
    )
}

struct FleetStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The fleet's sources (due, overdue, held), the source due longest, and the workers seen lately.",
        discussion: """
            Due: due now and held by no worker. Overdue: due for longer than its own interval (the fleet is \
            behind: add workers). Held: claimed by a worker that is running it, or by one that died and whose \
            claim has not expired yet.
            """
    )

    enum Format: String, CaseIterable, EnumArgument {
        case table, json
    }

    @OptionGroup var manifestOptions: ManifestOptions

    @Option(name: [.customShort("f"), .long], help: "table (the default) or json.")
    var format: Format = .table

    @Option(name: .long, help: ArgumentHelp("List the workers seen within this many seconds.", valueName: "seconds"))
    var recent = 600.0

    func run() throws {
        let service = try StoreOptions.openStore(manifestOptions)
        let read: FleetStatus?
        do throws(SourceError) {
            read = try service.fleetStatus(recentSeconds: recent)
        } catch {
            Terminal.writeError("aggregate: \(error.message)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        guard let status = read else {
            Terminal.writeError("aggregate: \(service.location) is a SQLite store, which has no fleet: workers "
                + "share a PostgreSQL store (AGGREGATE_STORE=postgres://…)\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        let stdout = StandardOutput()
        switch format {
        case .json: stdout.write(Self.json(status) + "\n")
        case .table: stdout.write(Self.table(status))
        }
        stdout.flush()
    }

    static func json(_ status: FleetStatus) -> String {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        for (key, value) in [("sources", status.sources), ("due", status.due), ("overdue", status.overdue), ("held", status.held)] {
            writer.key(key)
            writer.int(value)
        }
        writer.key("oldestDue")
        if let oldest = status.oldestDue {
            writer.beginObject()
            writer.key("id")
            writer.string(oldest.id)
            writer.key("since")
            writer.string(ISO8601.string(from: oldest.since))
            writer.endObject()
        } else {
            writer.null()
        }
        writer.key("workers")
        writer.beginArray()
        for worker in status.workers {
            writer.beginObject()
            writer.key("id")
            writer.string(worker.id)
            writer.key("lastSeen")
            writer.string(ISO8601.string(from: worker.lastSeen))
            writer.key("holding")
            writer.int(worker.holding)
            writer.key("manifestDiffers")
            writer.bool(worker.manifestDiffers)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func table(_ status: FleetStatus) -> String {
        var text = "sources \(status.sources), due \(status.due), overdue \(status.overdue), held \(status.held)\n"
        if let oldest = status.oldestDue {
            text += "due longest: \(oldest.id), since \(ISO8601.string(from: oldest.since))\n"
        }
        if status.workers.isEmpty {
            text += "no worker seen lately\n"
        } else {
            text += "workers:\n"
            for worker in status.workers {
                text += "  \(worker.id)  last seen \(ISO8601.string(from: worker.lastSeen))  holding \(worker.holding)"
                text += worker.manifestDiffers ? "  its manifest differs: claims nothing\n" : "\n"
            }
        }
        return text
    }
}
