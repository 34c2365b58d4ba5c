import Domain
import ExecProvider
import Foundation
import Processes
import ProviderKit
import Testing

@Suite("Exec provider options")
struct ExecProviderTests {
    private let directory = URL(fileURLWithPath: "/tmp")

    @Test("every bad option is reported at once with its JSON path")
    func everyProblem() {
        let options: JSONValue = [
            "args": ["--ok", 3], "env": ["TOKEN": 42, "A=B": "x"], "input": "pipe", "maxOutputBytes": 0, "arg": [],
        ]
        #expect(throws: ManifestError.self) { try makeSource(options, in: directory) }
        do {
            _ = try makeSource(options, in: directory)
        } catch {
            let text = error.description
            #expect(text.contains("sources[0].options.command: required option is missing"))
            #expect(text.contains("sources[0].options.args[1]: expected a string, found an integer"))
            #expect(text.contains("sources[0].options.env.TOKEN: expected a string, found an integer"))
            #expect(text.contains("sources[0].options.input: 'pipe' is not one of stdin, file"))
            #expect(text.contains("sources[0].options.maxOutputBytes: must be at least 1"))
            #expect(text.contains("sources[0].options.arg: unknown option (did you mean 'args'?)"))
            #expect(error.problems.count == 6)
        }
    }

    @Test("a command line given as one string asks for an argv array")
    func commandAsString() {
        do {
            _ = try makeSource(["command": "python3 provider.py"], in: directory)
            Issue.record("expected a manifest error")
        } catch {
            #expect(error.problems.map(\.path) == ["sources[0].options.command"])
            #expect(error.description.contains("expected an array of strings (argv)"))
        }
    }

    @Test("an empty command or an empty program name is refused", arguments: [JSONValue.array([]), [""]])
    func emptyCommand(command: JSONValue) {
        do {
            _ = try makeSource(["command": command], in: directory)
            Issue.record("expected a manifest error")
        } catch {
            #expect(error.description == "sources[0].options.command: needs the program to run as its first element")
        }
    }

    @Test("a valid source builds without starting anything, even when the program is missing")
    func validBuilds() throws {
        _ = try makeSource(
            ["command": ["definitely-not-installed-program"], "args": ["-v"], "env": ["K": "v"],
             "config": ["anything": [1, 2]], "input": "file", "maxOutputBytes": 1024],
            in: directory)
    }

    @Test("the program's input is the source id and options.config, nothing else")
    func inputJSON() {
        let command = ExecCommand(
            sourceID: "words", argv: ["x"], environment: ["TOKEN": "secret-value"], config: ["top": 3],
            baseDirectory: directory)
        #expect(String(decoding: command.inputJSON, as: UTF8.self) == "{\"options\":{\"top\":3},\"source\":\"words\"}\n")
    }

    @Test("only the documented variables are inherited, and env overrides them")
    func environment() {
        let command = ExecCommand(sourceID: "s", argv: ["x"], environment: ["TZ": "Asia/Seoul", "MINE": "1"],
                                  baseDirectory: directory)
        let child = command.childEnvironment(parent: [
            "PATH": "/bin", "HOME": "/home/me", "LC_ALL": "C", "TZ": "UTC", "GITHUB_TOKEN": "ghp_x", "OTHER": "y",
        ])
        #expect(child == ["PATH": "/bin", "HOME": "/home/me", "LC_ALL": "C", "TZ": "Asia/Seoul", "MINE": "1"])
    }
}
