import Testing

/// The package graph is the architecture (docs/ARCHITECTURE.md): this reads it as SwiftPM evaluates it and fails on
/// an edge the architecture forbids, naming it, so the map stays true without anyone rereading Package.swift.
@Suite("target graph")
struct TargetGraphTests {
    @Test("the package has no forbidden dependency between its targets")
    func noForbiddenEdge() async throws {
        let manifest = try await PackageManifest.dump()
        let graph = manifest.targetGraph
        // A rename must not pass by checking nothing.
        for name in ["Domain", "JSON", "App", "aggregate"] + TargetGraph.stores {
            #expect(graph.targets[name] != nil, "no target \(name): the rules below name it")
        }
        #expect(graph.targets.keys.contains { TargetGraph.isProvider($0) }, "no provider target found")
        for edge in graph.forbiddenEdges {
            Issue.record("\(edge)")
        }
    }

    /// Each rule on a small graph of its own: one allowed edge of each kind, one forbidden edge per rule.
    @Test("each rule names the edge it forbids, and allows the architecture's edges")
    func rules() {
        let graph = TargetGraph(targets: [
            "JSON": .init(isTest: false, dependencies: []),
            "Domain": .init(isTest: false, dependencies: ["JSON", "ProviderKit"]),
            "ProviderKit": .init(isTest: false, dependencies: ["Domain"]),
            "AcmeProvider": .init(isTest: false, dependencies: ["Domain", "ProviderKit", "OtherProvider", "App"]),
            "OtherProvider": .init(isTest: false, dependencies: ["Domain"]),
            "SQLiteStore": .init(isTest: false, dependencies: ["Domain"]),
            "PostgresStore": .init(isTest: false, dependencies: ["SQLiteStore"]),
            "Sinks": .init(isTest: false, dependencies: ["OtherProvider"]),
            "App": .init(isTest: false, dependencies: ["AcmeProvider", "SQLiteStore", "PostgresStore"]),
            "aggregate": .init(isTest: false, dependencies: ["App", "PostgresStore"]),
            "AcmeProviderTests": .init(isTest: true, dependencies: ["AcmeProvider", "OtherProvider"]),
        ])
        #expect(graph.forbiddenEdges.map(\.description) == [
            "AcmeProvider → App: a provider target depends on Domain and infrastructure only",
            "AcmeProvider → OtherProvider: a provider target depends on Domain and infrastructure only",
            "Domain → ProviderKit: Domain depends on no target of this package but JSON",
            "PostgresStore → SQLiteStore: one store never depends on the other",
            "Sinks → OtherProvider: only App (the composition root) and tests depend on a provider target",
            "aggregate → PostgresStore: the executable reaches a store through App only",
        ])
    }
}

/// The dependencies between this package's targets, and the rules of docs/ARCHITECTURE.md that they must keep.
struct TargetGraph {
    struct Target {
        var isTest: Bool
        /// This package's targets it depends on directly (products of other packages left out).
        var dependencies: Set<String>
    }

    /// An edge a rule forbids.
    struct Edge: CustomStringConvertible {
        var from: String
        var to: String
        var rule: String
        var description: String { "\(from) → \(to): \(rule)" }
    }

    static let stores = ["SQLiteStore", "PostgresStore"]

    static func isProvider(_ name: String) -> Bool { name.hasSuffix("Provider") }

    let targets: [String: Target]

    var forbiddenEdges: [Edge] {
        var edges: [Edge] = []
        for (name, target) in targets {
            for dependency in target.dependencies where targets[dependency] != nil {
                if let rule = rule(forbidding: name, target, dependency) {
                    edges.append(Edge(from: name, to: dependency, rule: rule))
                }
            }
        }
        return edges.sorted { ($0.from, $0.to) < ($1.from, $1.to) }
    }

    private func rule(forbidding name: String, _ target: Target, _ dependency: String) -> String? {
        if name == "Domain", dependency != "JSON" {
            return "Domain depends on no target of this package but JSON"
        }
        if Self.isProvider(name), !target.isTest, Self.isProvider(dependency) || dependency == "App" {
            return "a provider target depends on Domain and infrastructure only"
        }
        if Self.stores.contains(name), Self.stores.contains(dependency) {
            return "one store never depends on the other"
        }
        if name == "aggregate", Self.stores.contains(dependency) {
            return "the executable reaches a store through App only"
        }
        if Self.isProvider(dependency), name != "App", !target.isTest {
            return "only App (the composition root) and tests depend on a provider target"
        }
        return nil
    }
}

extension PackageManifest {
    /// The graph of this package's targets as the manifest declares it.
    /// Plugins are left out: they build tools, not code the targets link (`NewProvider` is no provider).
    var targetGraph: TargetGraph {
        TargetGraph(targets: targetsByName.filter { $0.value["type"] as? String != "plugin" }.mapValues { target in
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                // `byName` and `target` may name a target of this package; `product` is another package's.
                (dependency["byName"] ?? dependency["target"]).flatMap { ($0 as? [Any])?.first as? String }
            }
            return TargetGraph.Target(isTest: target["type"] as? String == "test", dependencies: Set(dependencies))
        })
    }
}
