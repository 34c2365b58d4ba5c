@testable import App
import Domain
import Foundation
import Testing

@Suite("Run plan")
struct PlanTests {
    private let manifest = """
        {"version": 1, "sources": [
          {"id": "notes", "provider": "echo", "options": {"cities": ["a"], "path": "data/x.csv"}},
          {"id": "weather", "provider": "echo", "options": {"cities": ["Seoul"], "apiKey": "${KEY}"}},
          {"id": "off", "provider": "echo", "enabled": false, "options": {"cities": []}},
          {"id": "movies", "provider": "search", "options": {"cities": []}}
        ]}
        """

    private func statuses(_ plan: [PlannedSource]) -> [String] {
        plan.map { source in
            switch source.plan {
            case .load: "\(source.descriptor.id): load"
            case .skip(_, let error): "\(source.descriptor.id): skip\(error == nil ? "" : " (problem)")"
            case .fail(let error): "\(source.descriptor.id): fail \(error.kind.rawValue)"
            }
        }
    }

    @Test("by default every source is planned; disabled ones and ones missing a variable are skipped")
    func defaultSelection() throws {
        let plan = try container(manifest).plan(selection: nil, query: nil)
        #expect(statuses(plan) == ["notes: load", "weather: skip (problem)", "off: skip", "movies: load"])
        guard case .skip(let reason, _) = plan[1].plan else { return }
        #expect(reason == "needs environment variable $KEY, which is not set")
    }

    @Test("named sources run in manifest order, disabled ones included; a named source missing a variable fails")
    func namedSelection() throws {
        let plan = try container(manifest).plan(selection: ["off", "weather"], query: nil)
        #expect(statuses(plan) == ["weather: fail configuration", "off: load"])
    }

    @Test("the environment fills variables, and the value reaches the provider")
    func substitution() async throws {
        let plan = try container(manifest, environment: ["KEY": "s3cret"]).plan(selection: ["weather"], query: nil)
        let report = await AggregateSourcesUseCase().execute(plan)
        #expect(report.sources[0].items.first?.fields["apiKey"] == "s3cret")
    }

    @Test("unknown --sources names are an error listing the known ids with a suggestion")
    func unknownSources() throws {
        let loaded = try container(manifest)
        #expect(throws: SelectionError.unknownSources(["wether"], known: ["notes", "weather", "off", "movies"])) {
            try loaded.plan(selection: ["wether"], query: nil)
        }
        let message = SelectionError.unknownSources(["wether"], known: ["notes", "weather"]).description
        #expect(message == "unknown source 'wether' (did you mean 'weather'?); the manifest defines: notes, weather")
    }

    @Test("--query reaches providers that accept one and is rejected for named sources that do not")
    func query() async throws {
        let loaded = try container(manifest, environment: ["KEY": "k"])
        let plan = try loaded.plan(selection: nil, query: "Inception")
        let report = await AggregateSourcesUseCase().execute(plan)
        #expect(report.sources.first { $0.id == "movies" }?.items.first?.fields["query"] == "Inception")
        #expect(report.sources.first { $0.id == "notes" }?.items.first?.fields["query"] == nil)
        #expect(throws: SelectionError.self) { try loaded.plan(selection: ["notes"], query: "Inception") }
        #expect(throws: SelectionError.self) { try loaded.plan(selection: ["notes", "movies"], query: "x") }
    }

    @Test("--query is refused when the only source that takes one is disabled and not named")
    func queryWithOnlyDisabledSearch() throws {
        let loaded = try container("""
            {"version": 1, "sources": [
              {"id": "notes", "provider": "echo", "options": {"cities": ["a"]}},
              {"id": "movies", "provider": "search", "enabled": false, "options": {"cities": []}}
            ]}
            """)
        #expect(throws: SelectionError.queryNotAccepted(["notes (echo)"], accepting: ["search"])) {
            try loaded.plan(selection: nil, query: "Inception")
        }
        #expect(try loaded.plan(selection: ["movies"], query: "Inception").count == 1)
    }

    @Test("relative paths in options resolve against the manifest's directory, not the working directory")
    func relativePaths() async throws {
        let loaded = try container(manifest)
        let report = await AggregateSourcesUseCase().execute(try loaded.plan(selection: ["notes"], query: nil))
        let path = report.sources[0].items.first?.fields["path"]?.stringValue ?? ""
        #expect(path == loaded.manifest.baseDirectory.appendingPathComponent("data/x.csv").path)
        #expect(path.hasPrefix(FileManager.default.temporaryDirectory.standardizedFileURL.path) || path.contains("aggregate-app-"))
    }

    @Test("list tells ready, disabled and missing-variable sources apart")
    func listing() throws {
        let states = try container(manifest).listing().map(\.state)
        #expect(states == [.ready, .missingVariables(["KEY"]), .disabled, .ready])
    }
}

@Suite("Environment substitution")
struct EnvironmentSubstitutionTests {
    @Test("variables, defaults, escapes and missing names", arguments: [
        ("${A}", "1", [String]()),
        ("x-${A}-${B:-two}", "x-1-two", []),
        ("${MISSING}", "${MISSING}", ["MISSING"]),
        ("${EMPTY:-fallback}", "fallback", []),
        ("$${A} costs $5", "${A} costs $5", []),
        ("${UNCLOSED", "${UNCLOSED", []),
    ])
    func strings(input: String, expected: String, missing: [String]) {
        let result = EnvironmentSubstitution.apply(to: .string(input), environment: ["A": "1", "EMPTY": ""])
        #expect(result.value == .string(expected))
        #expect(result.missing == missing)
    }

    @Test("substitution reaches strings nested in arrays and objects and leaves other values alone")
    func nested() {
        let result = EnvironmentSubstitution.apply(
            to: ["list": ["${A}", 3], "object": ["key": "${B}"], "flag": true], environment: ["A": "a"])
        #expect(result.value == ["list": ["a", 3], "object": ["key": "${B}"], "flag": true])
        #expect(result.missing == ["B"])
    }
}
