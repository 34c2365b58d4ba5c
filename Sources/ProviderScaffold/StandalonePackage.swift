import Foundation

/// Where a standalone provider package gets aggregate from: a git URL and the lowest version it accepts (`from:`,
/// so any later minor or patch release satisfies it; CHANGELOG.md says what those may change).
public struct AggregateDependency: Sendable, Hashable {
    /// This version of aggregate (`ToolVersion.current`; the scaffold's tool does not link ProviderKit, a test keeps
    /// the two equal): the default lowest version a generated package asks for.
    public static let currentVersion = "0.9.0"

    public var url: String
    public var version: String

    public init(url: String, version: String) {
        self.url = url
        self.version = version
    }

    /// SwiftPM names a URL dependency after the last path component: products are referred to with this name.
    public var packageIdentity: String {
        let last = url.split(separator: "/").last.map(String.init) ?? url
        return (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
    }
}

/// A package of its own for a provider (`new-provider --standalone DIR`): the provider target and its tests as the
/// in-repository scaffold writes them, a Package.swift that depends on aggregate by version, and an executable that is
/// the whole aggregate command line with the provider added (`AggregateCLI.main(providers:)`). The plugin makes one
/// provider; a package may hold several (the end-to-end test builds one with every capability).
public struct StandalonePackage: Sendable {
    /// The first names the package and its executable.
    public let scaffolds: [Scaffold]
    public let dependency: AggregateDependency

    public init(scaffold: Scaffold, dependency: AggregateDependency) {
        self.init(scaffolds: [scaffold], dependency: dependency)
    }

    public init(scaffolds: [Scaffold], dependency: AggregateDependency) {
        precondition(!scaffolds.isEmpty, "a provider package holds at least one provider")
        self.scaffolds = scaffolds
        self.dependency = dependency
    }

    private var first: ProviderName { scaffolds[0].name }

    /// `tech-digest-provider`: the package's name.
    public var packageName: String { "\(first.providerName)-provider" }
    /// `tech-digest-aggregate`: the custom binary, aggregate with the package's providers beside the built-in ones.
    public var executableName: String { "\(first.providerName)-aggregate" }

    public var files: [GeneratedFile] {
        scaffolds.flatMap(\.files) + [
            GeneratedFile(path: "Package.swift", contents: manifest),
            GeneratedFile(path: "Sources/\(executableName)/main.swift", contents: executableMain),
            GeneratedFile(path: "README.md", contents: readme),
            GeneratedFile(path: ".gitignore", contents: ".build/\n.swiftpm/\n"),
        ]
    }

    var readme: String {
        let providers = scaffolds.map { "`\($0.name.providerName)` (\($0.name.targetName), \($0.capability.rawValue))" }
        return """
        # \(packageName)

        Providers for [aggregate](\(dependency.url)) in a package of their own: \(providers.joined(separator: ", ")).
        Made by `swift package new-provider --standalone`. aggregate is a dependency by version, `from: "\(dependency.version)"`: every
        later release up to the next major one, which aggregate's CHANGELOG.md promises will not break a provider.

        ```sh
        # the providers' tests and aggregate's conformance kit
        swift test
        # aggregate, with this package's providers added
        swift run \(executableName) providers
        swift build -c release && cp .build/release/\(executableName) /usr/local/bin/
        ```

        A manifest names the provider like any built-in one:

        ```json
        { "sources": [ { "id": "\(first.providerName)", "provider": "\(first.providerName)", "options": { } } ] }
        ```

        `\(executableName) providers` lists its options. To build against a clone of aggregate instead of its published
        repository, point the URL in Package.swift at it (`file:///path/to/aggregate`); the clone needs the version's tag.

        """
    }

    var manifest: String {
        let aggregate = dependency.packageIdentity
        let names = scaffolds.map(\.name)
        let libraries = names.map { #"        .library(name: "\#($0.targetName)", targets: ["\#($0.targetName)"]),"# }
        let providerTargets = names.map {
            #"        .target(name: "\#($0.targetName)", dependencies: [.product(name: "ProviderKit", package: "\#(aggregate)")]),"#
        }
        let testTargets = names.map {
            #"""
                    .testTarget(name: "\#($0.testTargetName)", dependencies: [
                        "\#($0.targetName)",
                        .product(name: "ProviderKit", package: "\#(aggregate)"),
                        .product(name: "ProviderTesting", package: "\#(aggregate)"),
                    ], resources: [.copy("Fixtures")]),
            """#
        }
        return #"""
        // swift-tools-version: 6.1
        // The \#(first.displayName) provider for aggregate, in a package of its own (made by `new-provider --standalone`):
        // the provider, its tests on aggregate's conformance kit, and `\#(executableName)`, the aggregate command line
        // with this provider beside the built-in ones. aggregate is a dependency by version (CHANGELOG.md there says
        // what a minor and a major release may change).
        import PackageDescription

        let package = Package(
            name: "\#(packageName)",
            platforms: [.macOS(.v15)],
            products: [
        \#(libraries.joined(separator: "\n"))
                .executable(name: "\#(executableName)", targets: ["\#(executableName)"]),
            ],
            dependencies: [
                .package(url: "\#(dependency.url)", from: "\#(dependency.version)"),
            ],
            targets: [
                // MARK: - Providers
        \#(providerTargets.joined(separator: "\n"))

                // MARK: - CLI
                .executableTarget(name: "\#(executableName)", dependencies: [
                    \#(names.map { #""\#($0.targetName)""# }.joined(separator: ", ")),
                    .product(name: "AggregateCLI", package: "\#(aggregate)"),
                ]),

                // MARK: - Tests
        \#(testTargets.joined(separator: "\n"))
            ],
            swiftLanguageModes: [.v6]
        )

        """#
    }

    var executableMain: String {
        let names = scaffolds.map(\.name)
        return #"""
        import AggregateCLI
        \#(names.map { "import \($0.targetName)" }.joined(separator: "\n"))

        // aggregate's whole command line (run, watch, serve, validate, providers, schema, …) with this package's
        // providers beside the built-in ones: a manifest may name them, `\#(executableName) providers` lists their options.
        AggregateCLI.main(providers: AggregateCLI.builtInProviders + [\#(names.map { "\($0.targetName)()" }.joined(separator: ", "))])

        """#
    }

    /// What to do next, exactly: printed by the plugin after the package is written.
    public func nextSteps(directory: String) -> String {
        """
        Next steps:
          1. Run its tests (the first build compiles aggregate and its dependencies once):
                 cd \(directory) && swift test
          2. Run aggregate with it:
                 swift run \(executableName) providers
             In a manifest: { "id": "\(first.providerName)", "provider": "\(first.providerName)", "options": { … } }
          3. Then make it real: follow aggregate's docs/WRITING_A_PROVIDER.md (recorded responses, DTO, errors).
        """
    }

    /// Writes the package into `directory`, which may exist but must not hold a Package.swift (nothing is ever
    /// overwritten). Returns the paths written, relative to `directory`.
    @discardableResult
    public func write(into directory: URL) throws(ScaffoldError) -> [String] {
        let existing = directory.appendingPathComponent("Package.swift")
        if FileManager.default.fileExists(atPath: existing.path) { throw .packageExists(existing.path) }
        return try GeneratedFile.write(files, into: directory)
    }
}
