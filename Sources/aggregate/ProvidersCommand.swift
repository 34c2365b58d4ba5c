import App
import ArgumentParser

/// The registered providers and the options each accepts.
struct ProvidersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the registered providers and the options each accepts in a manifest."
    )

    func run() throws {
        for (index, provider) in ProviderRegistry.builtIn.providers.enumerated() {
            if index > 0 { print("") }
            let query = provider.acceptsQuery ? " (accepts --query)" : ""
            print("\(provider.name): \(provider.summary)\(query)")
            let rows = provider.options.map { option in
                let requirement = option.required ? "required" : option.defaultValue.map { "default \($0)" } ?? "optional"
                return ["  \(option.name)", option.type, requirement, option.help]
            }
            print(TextColumns.format(rows), terminator: "")
        }
    }
}
