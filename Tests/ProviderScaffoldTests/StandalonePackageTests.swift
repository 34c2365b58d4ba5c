import Foundation
import ProviderKit
import ProviderScaffold
import ProviderTesting
import Testing

@Suite("Standalone provider package")
struct StandalonePackageTests {
    static let example = PackageCopy.original.appendingPathComponent("Examples/ExternalProvider")
    /// Examples/ExternalProvider's dependency: the placeholder a provider author replaces with where they get aggregate.
    static let exampleDependency = AggregateDependency(
        url: "https://example.com/aggregate.git", version: AggregateDependency.currentVersion)

    static func package(_ names: [(String, Capability)] = [("Tech Digest", .records)]) throws -> StandalonePackage {
        let scaffolds = try names.map { Scaffold(name: try ProviderName($0.0), capability: $0.1) }
        return StandalonePackage(scaffolds: scaffolds, dependency: exampleDependency)
    }

    @Test("Examples/ExternalProvider is exactly what --standalone makes, file for file")
    func exampleIsTheScaffoldsOutput() throws {
        let package = try Self.package([("Acme", .records)])
        for file in package.files {
            let committed = try String(contentsOf: Self.example.appendingPathComponent(file.path), encoding: .utf8)
            #expect(committed == file.contents, "\(file.path) differs: regenerate with provider-scaffold (docs/EXTENDING.md)")
        }
        let enumerator = FileManager.default.enumerator(atPath: Self.example.path)
        var onDisk: Set<String> = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasPrefix(".build") || path.hasPrefix(".swiftpm") || path == "Package.resolved" {
                enumerator?.skipDescendants()
                continue
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: Self.example.appendingPathComponent(path).path, isDirectory: &isDirectory),
               !isDirectory.boolValue {
                onDisk.insert(path)
            }
        }
        #expect(onDisk == Set(package.files.map(\.path)))
    }

    @Test("the manifest depends on aggregate by version and names its products by the URL's package")
    func versionedDependency() throws {
        let manifest = try #require(try Self.package().files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".package(url: "https://example.com/aggregate.git", from: "\#(ToolVersion.current)")"#))
        #expect(!manifest.contains("path:") && !manifest.contains("branch:") && !manifest.contains("unsafeFlags"))
        for product in ["ProviderKit", "ProviderTesting", "AggregateCLI"] {
            #expect(manifest.contains(#".product(name: "\#(product)", package: "aggregate")"#), "\(product)")
        }
        #expect(AggregateDependency(url: "file:///home/me/src/aggregate-fork", version: "1.0.0").packageIdentity == "aggregate-fork")
    }

    @Test("from a checkout, the scaffold asks for it by path (no tag needed); --url or --from ask by version")
    func dependencyForTheScaffold() throws {
        let byPath = AggregateDependency.forScaffold(checkoutPath: "/home/me/src/aggregate/", url: nil, version: nil)
        #expect(byPath.requirement == .path("/home/me/src/aggregate"))
        let scaffold = Scaffold(name: try ProviderName("Acme"), capability: .records)
        let package = StandalonePackage(scaffold: scaffold, dependency: byPath)
        let manifest = try #require(package.files.first { $0.path == "Package.swift" }).contents
        #expect(manifest.contains(#".package(path: "/home/me/src/aggregate"),"#))
        #expect(!manifest.contains(#"from: ""#) && !manifest.contains(#".package(url: ""#))
        for product in ["ProviderKit", "ProviderTesting", "AggregateCLI"] {
            #expect(manifest.contains(#".product(name: "\#(product)", package: "aggregate")"#), "\(product)")
        }
        let readme = try #require(package.files.first { $0.path == "README.md" }).contents
        #expect(readme.contains("by path") && readme.contains(#"from: "\#(ToolVersion.current)""#))

        #expect(AggregateDependency.forScaffold(checkoutPath: "/src/aggregate", url: "https://example.com/aggregate.git", version: nil)
            .requirement == .version(url: "https://example.com/aggregate.git", from: ToolVersion.current))
        #expect(AggregateDependency.forScaffold(checkoutPath: "/src/aggregate", url: nil, version: "0.10.1")
            .requirement == .version(url: "file:///src/aggregate", from: "0.10.1"))
    }

    @Test("the executable is aggregate's command line with every provider of the package added")
    func executable() throws {
        let package = try Self.package([("Tech Digest", .records), ("Sky Watch", .weather)])
        #expect(package.executableName == "tech-digest-aggregate")
        let main = try #require(package.files.first { $0.path == "Sources/tech-digest-aggregate/main.swift" }).contents
        #expect(main.contains("import TechDigestProvider\nimport SkyWatchProvider"))
        #expect(main.contains("AggregateCLI.main(providers: AggregateCLI.builtInProviders + [TechDigestProvider(), SkyWatchProvider()])"))
        for file in package.files where file.path.hasSuffix(".swift") {
            for line in file.contents.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(!line.hasSuffix(" ") && !line.contains("\t") && !line.contains("\\#("), "\(file.path): '\(line)'")
                #expect(line.count <= 140, "\(file.path): line too long")
            }
        }
    }

    @Test("the default version is this release's")
    func currentVersion() {
        #expect(AggregateDependency.currentVersion == ToolVersion.current)
    }

    @Test("writing refuses a directory that already holds a package and leaves it as it was")
    func refusesAnExistingPackage() throws {
        let directory = try ScratchDirectory.make("standalone")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("Package.swift")
        try Data("// mine\n".utf8).write(to: manifest)
        #expect(throws: ScaffoldError.packageExists(manifest.path)) { try Self.package().write(into: directory) }
        #expect(try String(contentsOf: manifest, encoding: .utf8) == "// mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["Package.swift"])
    }
}
