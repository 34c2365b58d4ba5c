import App
import ArgumentParser

/// The manifest's JSON Schema, generated from the registered providers' option specs.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the manifest's JSON Schema (draft 2020-12), generated from the providers' options.",
        discussion: """
            manifest.json names the committed copy in "$schema", so editors complete and check options. After \
            adding or changing a provider, regenerate it: \(ManifestSchema.regenerateCommand)
            """
    )

    func run() throws {
        print(ManifestSchema.text(registry: ActiveProviders.registry), terminator: "")
    }
}
