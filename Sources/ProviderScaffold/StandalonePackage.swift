import Foundation

/// Where a standalone provider package gets aggregate from: a checkout on this machine by path, or a git URL from a
/// lowest version (`from:`, so any later minor or patch release satisfies it; CHANGELOG.md says what those may change).
public struct AggregateDependency: Sendable, Hashable {
    /// This version of aggregate (`ToolVersion.current`; the scaffold's tool does not link ProviderKit, a test keeps
    /// the two equal): the default lowest version a generated package asks for by URL.
    public static let currentVersion = "0.10.0"

    /// How the generated Package.swift asks for aggregate.
    public enum Requirement: Sendable, Hashable {
        /// `.package(url: url, from: version)`: a repository whose tags include `version` (a published one).
        case version(url: String, from: String)
        /// `.package(path: path)`: exactly the checkout at `path`, whether or not it has tags (a clone of one's own).
        case path(String)
    }

    public var requirement: Requirement

    /// By version: `url` must carry the tag `version` (or a later one of the same major version) when resolved.
    public init(url: String, version: String) {
        requirement = .version(url: url, from: version)
    }

    /// By path: the package builds against the checkout at `path` as it is, which needs no tag.
    public init(path: String) {
        requirement = .path(path)
    }

    /// What `new-provider --standalone` asks for when run in the checkout at `checkoutPath`: by path when given
    /// neither `url` nor `version` (so a fresh clone without tags works), else by version, from `url` (default:
    /// the checkout, `file://…`, which then needs the version's tag) and `version` (default: this version).
    public static func forScaffold(checkoutPath: String, url: String?, version: String?) -> AggregateDependency {
        let path = URL(fileURLWithPath: checkoutPath).standardizedFileURL.path
        let checkout = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if url == nil, version == nil { return AggregateDependency(path: checkout) }
        return AggregateDependency(url: url ?? "file://" + checkout, version: version ?? currentVersion)
    }

    /// The URL or path the package's dependency names.
    public var location: String {
        switch requirement {
        case .version(let url, _): url
        case .path(let path): path
        }
    }

    /// SwiftPM names a dependency after the last component of its URL or path: products are referred to by it.
    public var packageIdentity: String {
        let last = location.split(separator: "/").last.map(String.init) ?? location
        return (last.hasSuffix(".git") ? String(last.dropLast(4)) : last).lowercased()
    }

    /// The dependency's line in the generated Package.swift.
    public var packageDeclaration: String {
        switch requirement {
        case .version(let url, let version): #".package(url: "\#(url)", from: "\#(version)")"#
        case .path(let path): #".package(path: "\#(path)")"#
        }
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

        Providers for \(aggregateReference) in a package of their own: \(providers.joined(separator: ", ")).
        Made by `swift package new-provider --standalone`. \(dependencyNote)

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

        `\(executableName) providers` lists its options.\(checkoutNote)

        """
    }

    /// aggregate as the README names it: a link to its repository, or the checkout's path.
    var aggregateReference: String {
        switch dependency.requirement {
        case .version(let url, _): "[aggregate](\(url))"
        case .path(let path): "aggregate (the checkout at `\(path)`)"
        }
    }

    /// For a package by version, how to build against a checkout instead.
    var checkoutNote: String {
        switch dependency.requirement {
        case .version:
            """
             To build against a clone of aggregate instead of its published
            repository, depend on the clone by path in Package.swift: `.package(path: "/path/to/aggregate")` (no tag needed).
            """
        case .path: ""
        }
    }

    /// The README's sentence on how the package gets aggregate.
    var dependencyNote: String {
        switch dependency.requirement {
        case .version(_, let version):
            """
            aggregate is a dependency by version, `from: "\(version)"`: every
            later release up to the next major one, which aggregate's CHANGELOG.md promises will not break a provider.
            """
        case .path:
            """
            aggregate is the checkout it was made from, by path: it builds
            against that checkout as it is, tags or not. Before you publish, depend on aggregate's repository by version,
            `.package(url: "<aggregate's repository URL>", from: "\(AggregateDependency.currentVersion)")`: every later release up to the next
            major one, which aggregate's CHANGELOG.md promises will not break a provider.
            """
        }
    }

    /// The generated Package.swift's comment on how it gets aggregate (the rest of its third line and the next).
    var manifestDependencyNote: String {
        switch dependency.requirement {
        case .version:
            """
            aggregate is a dependency by version (CHANGELOG.md there says
            // what a minor and a major release may change).
            """
        case .path:
            """
            aggregate is the checkout it was made from, by path; before you
            // publish, depend on aggregate's repository by version (`.package(url:from:)`, CHANGELOG.md there).
            """
        }
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
        // with this provider beside the built-in ones. \#(manifestDependencyNote)
        import PackageDescription

        let package = Package(
            name: "\#(packageName)",
            platforms: [.macOS(.v15)],
            products: [
        \#(libraries.joined(separator: "\n"))
                .executable(name: "\#(executableName)", targets: ["\#(executableName)"]),
            ],
            dependencies: [
                \#(dependency.packageDeclaration),
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
