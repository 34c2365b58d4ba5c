import App
import ArgumentParser

/// Checks a manifest (structure and every provider's options) without fetching anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the manifest and every source's options; fetch nothing.",
        discussion: "Prints every problem with its JSON path and exits 78 when there is any."
    )

    @OptionGroup var manifestOptions: ManifestOptions

    func run() throws {
        let container = try manifestOptions.loadContainer()
        let sources = container.manifest.sources
        let enabled = sources.filter(\.enabled).count
        print("\(manifestOptions.displayPath): valid (\(sources.count) sources, \(enabled) enabled)")
        for listing in container.listing() {
            if case .missingVariables(let names) = listing.state {
                Terminal.writeError(
                    "note: \(listing.id) needs \(names.map { "$\($0)" }.joined(separator: ", ")), which is not set\n")
            }
        }
    }
}
