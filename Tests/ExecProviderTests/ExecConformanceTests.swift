import Domain
import ExecProvider
import Foundation
import ProviderTesting
import Testing

/// The provider contract (ProviderTesting's conformance kit) for external programs, run on the shipped
/// examples. Concurrency is not checked: one source is one process.
@Suite("exec provider conformance", .serialized)
struct ExecConformanceTests {
    /// Handed to the program in its environment: the provider must never print it.
    static let token = "exec-token-7f3e9a1c5b"

    static let subject = ConformanceSubject.local(
        "exec", provider: ExecProvider(gracePeriod: 0.5), kind: .record,
        options: [
            "command": ["./word_counts.py"], "config": ["text": "the cat and the hat and the bat", "top": 3],
            "env": ["API_TOKEN": .string(token)],
        ],
        baseDirectory: examplesDirectory, secrets: [token],
        failures: [
            .init("a program that does not exist", options: ["command": ["./no-such-program"], "env": ["API_TOKEN": .string(token)]],
                  kind: .notFound),
            .init("a program that exits with an error",
                  options: ["command": ["python3", "word_counts.py"], "config": ["path": "no-such-notes.txt"],
                            "env": ["API_TOKEN": .string(token)]],
                  kind: .io),
            .init("a program that prints a line that is not JSON",
                  options: ["command": ["/bin/sh", "-c", #"echo '{"type":"item","id":"1","title":"ok"}'; echo 'not json'"#],
                            "env": ["API_TOKEN": .string(token)]],
                  kind: .parse),
        ],
        stalledOptions: ["command": ["/bin/sh", "-c", "sleep 3600"], "env": ["API_TOKEN": .string(token)]],  // a program that never answers
        invalidOptions: [
            .init("a command given as one string", options: ["command": "python3 provider.py"], path: "sources[0].options.command"),
            .init("an input mode that does not exist", options: ["command": ["true"], "input": "pipe"], path: "sources[0].options.input"),
        ])

    @Test("honours the provider contract",
          arguments: [ConformanceCheck.optionPaths, .errorTaxonomy, .secrecy, .timeout, .stableItems])
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
