import Foundation
import ProviderScaffold
import Testing

@Suite("Scaffold files and next steps")
struct ScaffoldTests {
    @Test("each capability implements its Domain repository and returns its use case", arguments: Capability.allCases)
    func capabilityFiles(capability: Capability) throws {
        let scaffold = Scaffold(name: try ProviderName("Tech Digest"), capability: capability)
        let byPath = Dictionary(uniqueKeysWithValues: scaffold.files.map { ($0.path, $0.contents) })
        let provider = try #require(byPath["Sources/TechDigestProvider/TechDigestProvider.swift"])
        #expect(provider.contains("public struct TechDigestProvider: Provider"))
        #expect(provider.contains(#"public var name: String { "tech-digest" }"#))
        #expect(provider.contains("return \(capability.useCase)("))
        let repository = try #require(scaffold.files.first { $0.path.hasSuffix("Repository.swift") })
        #expect(repository.contents.contains(": \(capability.repositoryProtocol) {"))
        let dto = try #require(byPath["Sources/TechDigestProvider/DTO/TechDigestResponseDTO+Mapping.swift"])
        #expect(dto.contains("// MARK: - Data Transfer Object") && dto.contains("// MARK: - Mappings to Domain"))
        #expect(dto.contains("func toDomain("))
        let tests = try #require(byPath["Tests/TechDigestProviderTests/TechDigestProviderTests.swift"])
        #expect(tests.contains("FixtureServer.start()") && tests.contains("kind == .\(capability.itemKind)"))
        #expect(byPath["Tests/TechDigestProviderTests/TechDigestConformanceTests.swift"]?.contains("ConformanceCheck.allCases") == true)
        let fixture = try #require(scaffold.files.first { $0.path.contains("/Fixtures/") && $0.path.hasSuffix(".json") })
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(fixture.contents.utf8)) }
        #expect(byPath["Tests/TechDigestProviderTests/Fixtures/SOURCES.md"]?.contains("SAMPLE") == true)
    }

    @Test("generated Swift has no tabs, no trailing spaces and no unfilled template markers", arguments: Capability.allCases)
    func tidy(capability: Capability) throws {
        for file in Scaffold(name: try ProviderName("Tech Digest"), capability: capability).files where file.path.hasSuffix(".swift") {
            for line in file.contents.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(!line.hasSuffix(" ") && !line.contains("\t"), "\(file.path): '\(line)'")
                #expect(!line.contains("\\#("), "\(file.path): '\(line)'")
                #expect(line.count <= 140, "\(file.path): line too long")
            }
        }
    }

    @Test("the next steps name the exact Package.swift lines and the registration line")
    func nextSteps() throws {
        let scaffold = Scaffold(name: try ProviderName("Tech Digest"), capability: .records)
        #expect(scaffold.nextSteps.contains(#".target(name: "TechDigestProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),"#))
        #expect(scaffold.nextSteps.contains(#".testTarget(name: "TechDigestProviderTests""#))
        #expect(scaffold.nextSteps.contains("import TechDigestProvider"))
        #expect(scaffold.nextSteps.contains("TechDigestProvider(),"))
        #expect(scaffold.nextSteps.contains("AGGREGATE_ONLY=App,TechDigestProviderTests swift test --filter TechDigestProviderTests"))
    }

    @Test("writing refuses to touch an existing target and leaves it as it was")
    func refusesToOverwrite() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try Data("// swift-tools-version: 6.1\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        let scaffold = Scaffold(name: try ProviderName("Tech Digest"), capability: .records)
        let written = try scaffold.write(into: package)
        #expect(written.count == scaffold.files.count)
        let providerFile = package.appendingPathComponent("Sources/TechDigestProvider/TechDigestProvider.swift")
        try Data("// mine\n".utf8).write(to: providerFile)
        #expect(throws: ScaffoldError.targetExists("Sources/TechDigestProvider")) { try scaffold.write(into: package) }
        #expect(try String(contentsOf: providerFile, encoding: .utf8) == "// mine\n")
        try FileManager.default.removeItem(at: package.appendingPathComponent("Sources"))
        #expect(throws: ScaffoldError.targetExists("Tests/TechDigestProviderTests")) { try scaffold.write(into: package) }
    }

    @Test("writing outside a package is refused")
    func notAPackage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scaffold-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(throws: ScaffoldError.notAPackage(directory.path)) {
            try Scaffold(name: try ProviderName("X Y"), capability: .feed).write(into: directory)
        }
    }
}
