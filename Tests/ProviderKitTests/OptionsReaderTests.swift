import Domain
import Foundation
import ProviderKit
import Testing

@Suite("Options reader")
struct OptionsReaderTests {
    private let specs = [
        OptionSpec("name", "string", required: true, help: ""),
        OptionSpec("count", "integer", help: ""),
        OptionSpec("ratio", "number", help: ""),
        OptionSpec("env", "object of strings", help: ""),
        OptionSpec("state", "open|closed|all", help: ""),
    ]

    private func reader(_ options: JSONValue) -> OptionsReader {
        OptionsReader(
            SourceConfiguration(id: "s", options: options, optionsPath: "sources[2].options",
                                baseDirectory: URL(fileURLWithPath: "/tmp"), timeoutSeconds: 1, concurrency: 1),
            specs: specs)
    }

    private func problems(_ reader: OptionsReader) -> [String] {
        do throws(ManifestError) {
            try reader.finish()
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("typed values are read, integers widen to numbers, integral numbers narrow to integers")
    func reads() {
        let options = reader(["name": "x", "count": 3.0, "ratio": 2, "env": ["A": "1"], "state": "closed"])
        #expect(options.value("name", as: String.self) == "x")
        #expect(options.value("count", as: Int.self) == 3)
        #expect(options.value("ratio", as: Double.self) == 2)
        #expect(options.value("env", as: [String: String].self) == ["A": "1"])
        #expect(options.value("state", as: IssueQuery.State.self) == .closed)
        #expect(problems(options).isEmpty)
    }

    @Test("every problem is collected with its path, including unknown keys with a suggestion")
    func collects() {
        let options = reader(["count": "many", "state": "opne", "nmae": "x", "env": ["A": 1]])
        _ = options.require("name", as: String.self)
        _ = options.value("count", as: Int.self)
        _ = options.value("state", as: IssueQuery.State.self)
        _ = options.value("env", as: [String: String].self)
        options.problem("ratio", "must be positive")
        #expect(problems(options) == [
            "sources[2].options.name: required option is missing",
            "sources[2].options.count: expected an integer, found a string",
            "sources[2].options.state: 'opne' is not one of open, closed, all (did you mean 'open'?)",
            "sources[2].options.env.A: expected a string, found an integer",
            "sources[2].options.ratio: must be positive",
            "sources[2].options.nmae: unknown option (did you mean 'name'?); this provider accepts: name, count, ratio, env, state",
        ])
    }

    @Test("options that are not an object are reported at the options path")
    func notAnObject() {
        #expect(problems(reader(["a", "b"])) == ["sources[2].options: expected an object, found an array"])
    }
}

@Suite("Suggestions and globs")
struct SuggestionAndGlobTests {
    @Test("close and shortened names are suggested; unrelated ones are not", arguments: [
        ("weaher", "weather"), ("timeout", "timeoutSeconds"), ("SOURCES", "sources"), ("zzz", nil),
    ] as [(String, String?)])
    func suggestion(word: String, expected: String?) {
        #expect(Suggestion.closest(to: word, in: ["weather", "timeoutSeconds", "sources"]) == expected)
    }

    @Test("a glob lists matching regular files sorted; a plain path is kept even when missing")
    func glob() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("glob-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub.csv"), withIntermediateDirectories: true)
        for name in ["b.csv", "a.csv", "c.json"] {
            try Data().write(to: directory.appendingPathComponent(name))
        }
        let matches = Glob.expand(directory.appendingPathComponent("*.csv")).map(\.lastPathComponent)
        #expect(matches == ["a.csv", "b.csv"])
        #expect(Glob.expand(directory.appendingPathComponent("*.xml")).isEmpty)
        let plain = directory.appendingPathComponent("missing.csv")
        #expect(Glob.expand(plain) == [plain])
    }
}
