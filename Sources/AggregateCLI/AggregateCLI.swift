import App
import ArgumentParser
import Foundation
import ProviderKit
import Synchronization

/// The whole `aggregate` command line as a library: the `aggregate` executable is one call to
/// ``main(providers:arguments:)``, and so is a custom binary that adds providers from packages of their own:
///
/// ```swift
/// import AcmeProvider
/// import AggregateCLI
///
/// AggregateCLI.main(providers: AggregateCLI.builtInProviders + [AcmeProvider()])
/// ```
///
/// Every command (run, watch, serve, validate, providers, schema, doctor, …) then knows the extra providers: a
/// manifest may name them, `providers` lists their options and `schema` describes them.
public enum AggregateCLI {
    /// The providers the `aggregate` executable ships with, in the order `aggregate providers` lists them.
    public static var builtInProviders: [any Provider] { ProviderRegistry.builtIn.providers }

    /// Parses `arguments` (the process's own when nil), runs the command with `providers` and exits the process with
    /// the command's status (docs/COMMANDS.md, "Exit status"). Two providers with one name are a programming error of the binary:
    /// it says which name and exits 70 before reading anything.
    public static func main(providers: [any Provider] = builtInProviders, arguments: [String]? = nil) -> Never {
        var seen = Set<String>()
        let duplicates = Set(providers.map(\.name).filter { !seen.insert($0).inserted })
        if !duplicates.isEmpty {
            Terminal.writeError(
                "aggregate: more than one provider is named \(duplicates.sorted().joined(separator: ", ")); "
                    + "each provider needs a name of its own\n")
            exit(70)
        }
        ActiveProviders.use(ProviderRegistry(providers))
        Aggregate.main(arguments)
        exit(0)
    }
}

/// The providers of this process's command line: set once by ``AggregateCLI/main(providers:arguments:)`` before the
/// arguments are parsed, read by every command that loads a manifest or describes the providers.
enum ActiveProviders {
    private static let storage = Mutex(ProviderRegistry.builtIn)

    static var registry: ProviderRegistry { storage.withLock { $0 } }

    static func use(_ registry: ProviderRegistry) {
        storage.withLock { $0 = registry }
    }
}
