import Foundation
import Testing

/// `aggregate check-source ID`: the conformance checks from outside, for exec programs in any language.
@Suite("aggregate check-source (end to end)")
struct CheckSourceEndToEndTests {
    /// The shipped manifest's `words` source, with a timeout a loaded machine cannot reach (the shipped 10 s was
    /// reached once beside a CPU-heavy job): what is checked is the program, not the machine's speed.
    @Test("the shipped exec example passes every check")
    func shippedExample() async throws {
        let root = Aggregate.packageRoot
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "words", "provider": "exec", "timeoutSeconds": 300, "options": {
              "command": ["\(root.appendingPathComponent("Examples/exec/word_counts.py").path)"],
              "config": {"path": "\(root.appendingPathComponent("README.md").path)", "top": 5}}}]}
            """)
        let result = try await Aggregate.run(["check-source", "words", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("✓ ids: unique"))
        #expect(lines.contains { $0.hasPrefix("✓ stable: the same 5 ids in the same order on both runs") })
        #expect(lines.contains { $0.hasPrefix("✓ items: 5 items, each with an id and a title") })
        #expect(lines.filter { $0.hasPrefix("✓ timeout: run ") }.count == 2)
        #expect(lines.last == "words: every check passed")
    }

    @Test("a program with repeated and unstable ids that echoes its token fails those checks, and the token is not shown")
    func badProgram() async throws {
        let token = "tok-echoed-0123456789"
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "bad", "provider": "exec",
              "options": {"command": ["./bad.sh"], "env": {"API_TOKEN": "\(token)"}}}]}
            """, files: ["bad.sh": """
            #!/bin/sh
            echo '{"type":"item","id":"same","title":"one"}'
            echo '{"type":"item","id":"same","title":"two"}'
            echo "{\\"type\\":\\"item\\",\\"id\\":\\"run-$$\\",\\"title\\":\\"token $API_TOKEN\\"}"
            """])
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: sandbox.root.appendingPathComponent("bad.sh").path)
        let result = try await Aggregate.run(["check-source", "bad", "--manifest", sandbox.manifestPath])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("✗ ids: repeated: same") })
        #expect(lines.contains { $0.hasPrefix("✗ stable: the ids changed between two runs") })
        #expect(lines.contains { $0.hasPrefix("✗ secrets: 1 secret value of the options echoed") })
        #expect(lines.contains { $0.hasPrefix("✓ run: run 1: ok, 3 items") })
        #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
    }

    @Test("a failing program's error is typed; an unknown id exits 64")
    func failureAndUnknownID() async throws {
        let sandbox = try Sandbox(manifest: """
            {"version": 1, "sources": [{"id": "broken", "provider": "exec", "options": {"command": ["./broken.sh"]}}]}
            """, files: ["broken.sh": "#!/bin/sh\necho 'cannot reach the service' >&2\nexit 3\n"])
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: sandbox.root.appendingPathComponent("broken.sh").path)
        let result = try await Aggregate.run(["check-source", "broken", "--manifest", sandbox.manifestPath])
        #expect(result.status == 1)
        #expect(result.stdout.contains("✗ run: run 1: error, 0 items"))
        #expect(result.stdout.contains("cannot reach the service"))
        #expect(result.stdout.contains("✓ errors: the failure is typed (io)"))
        let unknown = try await Aggregate.run(["check-source", "nope", "--manifest", sandbox.manifestPath])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown source 'nope'"))
    }
}
