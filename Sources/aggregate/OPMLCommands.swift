import App
import ArgumentParser
import Foundation

/// `aggregate import …`: subscriptions from other tools.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Turn other tools' subscription lists into manifest sources.",
        subcommands: [ImportOPMLCommand.self])
}

/// `aggregate export …`: the manifest's subscriptions for other tools.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write the manifest's subscriptions in other tools' formats.",
        subcommands: [ExportOPMLCommand.self])
}

struct ImportOPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opml",
        abstract: "Make one feed source per feed of an OPML file (the export of any feed reader).",
        discussion: """
            Each outline with an xmlUrl becomes a "feed" source whose id is made from its title (lowercase \
            letters, digits and -, made unique). Folders and category attributes become the source's "tags" \
            option, which every item then carries in fields.tags. A feed whose URL is already in the list or the \
            manifest is skipped with a note on stderr.

            Without --write the manifest is printed; with it the feeds are merged into the manifest (--manifest), \
            which is replaced only if the result is valid (members are written in a fixed order).

            Examples:
              aggregate import opml subscriptions.opml > manifest.json
              aggregate import opml feedly.opml --write --manifest ~/aggregate/manifest.json
              aggregate import opml - --write < miniflux.opml
            """)

    @Argument(help: ArgumentHelp("The OPML file; - reads standard input.", valueName: "file"))
    var file: String

    @Flag(name: .long, help: "Merge the feeds into the manifest instead of printing a manifest.")
    var write = false

    @OptionGroup var manifestOptions: ManifestOptions

    func run() throws {
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                : try Data(contentsOf: URL(fileURLWithPath: (file as NSString).expandingTildeInPath))
        } catch {
            Terminal.writeError("error: \(file): cannot be read (\(FileManager.default.fileExists(atPath: file) ? "permission denied?" : "no such file"))\n")
            throw ExitCode(ExitStatus.noInput)
        }
        let useCase = ImportFeedsFromOPMLUseCase()
        let outcome: ImportFeedsFromOPMLUseCase.Outcome
        do throws(ImportFeedsFromOPMLUseCase.ImportError) {
            outcome = write ? try useCase.merge(opml: data, intoManifestAt: manifestOptions.manifestURL)
                : try useCase.run(opml: data)
        } catch {
            switch error {
            case .opml:
                Terminal.writeError("error: \(file): \(error)\n")
                throw ExitCode(ExitStatus.dataError)
            case .manifest:
                Terminal.writeError("error: \(manifestOptions.displayPath): \(error)\n")
                throw ExitCode(ExitStatus.invalidManifest)
            }
        }
        for note in outcome.notes { Terminal.writeError("note: \(note)\n") }
        if write {
            Terminal.writeError("added \(outcome.added.count) feed source(s) to \(manifestOptions.displayPath)\n")
        } else {
            print(outcome.manifest, terminator: "")
        }
    }
}

struct ExportOPMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "opml",
        abstract: "Print the manifest's feed sources as an OPML 2.0 subscription list.",
        discussion: """
            One outline per feed URL, titled with the source's id; a source's tags become its folder and its \
            category attribute, so importing the export gives the same sources back. Any feed reader imports it.

            Examples:
              aggregate export opml > subscriptions.opml
              aggregate export opml --manifest ~/aggregate/manifest.json --title "My feeds"
            """)

    @OptionGroup var manifestOptions: ManifestOptions

    @Option(name: .long, help: "The list's title.")
    var title = "aggregate feeds"

    func run() throws {
        let container = try manifestOptions.loadContainer()
        print(ExportFeedsToOPMLUseCase().run(manifest: container.manifest, title: title), terminator: "")
    }
}
