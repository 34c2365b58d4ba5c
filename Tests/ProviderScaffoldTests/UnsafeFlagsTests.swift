import Foundation
import ProviderTesting
import Testing

/// SwiftPM refuses a package used by version ("contains unsafe build flags") if a product the user asks for reaches a
/// target with `unsafeFlags`; a branch or path dependency hides it. This reads the manifest as SwiftPM evaluates it
/// (`swift package dump-package`) and fails when any target gets an unsafe flag again, so the next `-I` or `-Xlinker`
/// is caught here rather than by the first provider author who depends on a release.
@Suite("unsafe build flags")
struct UnsafeFlagsTests {
    /// The one target that may have one: the `aggregate` executable links with `--no-export-dynamic` (a smaller dynamic
    /// symbol table, a faster start). No library product reaches it; a custom binary is its own package's executable.
    static let allowed: Set<String> = ["aggregate"]

    /// One test, one evaluation of the manifest (a few seconds: SwiftPM compiles Package.swift in a new scratch path).
    @Test("the library products are there, and no target has an unsafe flag except the executable none of them reaches")
    func noUnsafeFlags() async throws {
        let manifest = try await PackageManifest.dump()
        #expect(Set(manifest.libraryProducts).isSuperset(of: ["ProviderKit", "ProviderTesting", "AggregateCLI"]))
        let flagged = manifest.targetsWithUnsafeFlags
        #expect(flagged.isSuperset(of: Self.allowed), "the check no longer sees the executable's flag: \(flagged)")
        let unexpected = flagged.subtracting(Self.allowed)
        #expect(unexpected.isEmpty, "targets with unsafeFlags: \(unexpected.sorted())")
        for product in manifest.libraryProducts {
            let reached = manifest.targets(reachedBy: product)
            #expect(reached.isDisjoint(with: Self.allowed), "library product \(product) reaches \(reached.intersection(Self.allowed))")
            #expect(reached.isDisjoint(with: flagged), "library product \(product) reaches \(reached.intersection(flagged))")
        }
    }
}

/// `swift package dump-package` of this repository, read as JSON: the products, the targets, their settings and
/// dependencies as SwiftPM evaluated them.
struct PackageManifest {
    let products: [[String: Any]]
    let targetsByName: [String: [String: Any]]

    /// Evaluates the manifest in a scratch directory of its own (the running build holds `.build`'s lock), without
    /// the environment switches that change the graph (`AGGREGATE_ONLY`, `AGGREGATE_FUZZ`).
    static func dump() async throws -> PackageManifest {
        let scratch = try ScratchDirectory.make("aggregate-dump-package")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE_ONLY"] = nil
        environment["AGGREGATE_FUZZ"] = nil
        environment["TMPDIR"] = scratch.path
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "package", "--package-path", PackageCopy.original.path, "--scratch-path", scratch.path, "dump-package"],
            in: scratch, environment: environment)
        try #require(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let targets = try #require(json["targets"] as? [[String: Any]])
        return PackageManifest(
            products: json["products"] as? [[String: Any]] ?? [],
            targetsByName: Dictionary(uniqueKeysWithValues: targets.map { ($0["name"] as? String ?? "", $0) }))
    }

    var libraryProducts: [String] {
        products.filter { ($0["type"] as? [String: Any])?["library"] != nil }.compactMap { $0["name"] as? String }
    }

    /// Targets with an `unsafeFlags` setting for any tool, on any platform.
    var targetsWithUnsafeFlags: Set<String> {
        Set(targetsByName.filter { _, target in
            (target["settings"] as? [[String: Any]] ?? []).contains { ($0["kind"] as? [String: Any])?["unsafeFlags"] != nil }
        }.keys)
    }

    /// The product's targets and every target of this package they depend on, directly or not.
    func targets(reachedBy product: String) -> Set<String> {
        let roots = products.first { $0["name"] as? String == product }?["targets"] as? [String] ?? []
        var reached = Set<String>()
        var pending = roots
        while let name = pending.popLast() {
            guard let target = targetsByName[name], reached.insert(name).inserted else { continue }
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                // `byName` and `target` name a target of this package (a `byName` may name a product elsewhere,
                // which targetsByName does not hold); `product` is another package's.
                if let name = (dependency["byName"] ?? dependency["target"]).flatMap({ ($0 as? [Any])?.first as? String }) {
                    pending.append(name)
                }
            }
        }
        return reached
    }
}
