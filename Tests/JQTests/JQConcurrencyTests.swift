import Foundation
import JQ
import Synchronization
import Testing

/// libjq from many threads at once, as `--jq` and the manifest's filters use it: each `JQExpression` (one
/// `jq_state`) one thread at a time behind its own lock, different expressions side by side. Every answer must be
/// the one a single thread gets. What the programs touch is what libjq 1.6 keeps outside a `jq_state`: the
/// allocator's thread-local out-of-memory handler (jqlang/jq#2545), number printing (dtoa), Oniguruma's
/// first-use initialisation (`test`, `sub`), time conversion, object hashing, and the builtins each compile parses.
@Suite("JQ: programs from many threads")
struct JQConcurrencyTests {
    static let programs = [
        ".",
        "[.items[] | select(.score > 2) | .title] | sort",
        ".items | map(.score * 1.5 | tostring) | join(\",\")",
        ".items[] | .title | test(\"^b\"; \"i\")",
        ".items | map(.title | sub(\"(?<x>[aeiou])\"; \"<\\(.x)>\"; \"g\"))",
        ".items | group_by(.score > 2) | map(length)",
        ".items | map(.when | todate) | .[]",
        ".items | map(.when | gmtime | strftime(\"%Y-%m-%dT%H\")) | @csv",
        "{count: (.items | length), keys: (.items[0] | keys), b64: (.items[0].title | @base64)}",
        "if .items[0].score > 100 then . else error(\"no: \\(.items[0].title)\") end",
        ".items[] | select(.score == 3) | halt_error(2)",
    ]
    static let inputs: [[UInt8]] = (0..<6).map { n in
        let items = (0..<(n + 2)).map { i in
            #"{"title": "\#(["alpha", "Beta", "gamma", "bravo"][(n + i) % 4])-\#(i)", "score": \#(Double(i) + 0.25 * Double(n)), "when": \#(1_700_000_000 + 86_400 * (n + i))}"#
        }
        return Array(#"{"items": [\#(items.joined(separator: ", "))]}"#.utf8)
    }

    /// What one thread gets, program by program and input by input.
    static func answers(_ expressions: [JQExpression], compact: Bool) -> [[JQExpression.Output]] {
        expressions.map { expression in inputs.map { expression.run($0, compact: compact) } }
    }

    @Test("a halt, then runs that do not halt, on one compiled program: jq 1.6 freed the halt's message twice")
    func runsAfterAHalt() throws {
        let expression = try JQExpression("select(.a == 3) | halt_error(2)")
        let filter = try JQExpression("if .a == 3 then halt else true end")
        for _ in 0..<3 {
            for input in [#"{"a": 3}"#, #"{"a": 1}"#, #"{"a": 1}"#, #"{"a": 3}"#, #"{"a": 3}"#, #"{"a": 1}"#] {
                let output = expression.run(Array(input.utf8), compact: true)
                let halts = input.contains("3")
                #expect(output.status == (halts ? .halted(code: 2) : .ok))
                #expect(output.message == (halts ? "{\"a\":3}\n" : ""))
                let kept = filter.keeps(Array(input.utf8))
                #expect(halts ? (try? kept.get()) == nil : (try? kept.get()) == true)
            }
        }
    }

    @Test("8 threads, 20 rounds each: shared programs and each thread's own compiled ones answer as one thread does")
    func manyThreads() async throws {
        let shared = try Self.programs.map { try JQExpression($0) }
        let expected = Self.answers(shared, compact: false)
        let expectedCompact = Self.answers(shared, compact: true)
        #expect(expected.joined().contains { if case .halted(code: 2) = $0.status { true } else { false } })
        #expect(expected.joined().contains { if case .error = $0.status { true } else { false } })

        let threads = 8
        let mismatches = Mutex<[String]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Mutex(threads)
            for thread in 0..<threads {
                Thread {
                    // Odd threads compile states of their own (compiling at once too; twice, as a compile costs
                    // libjq 1.6 ~30 ms of parsing its builtins); even ones share the first thread's.
                    var expressions = shared
                    for round in 0..<20 {
                        let compact = (thread + round) % 2 == 0
                        if thread % 2 == 1 && round % 10 == 0 { expressions = Self.programs.map { try! JQExpression($0) } }
                        let got = Self.answers(expressions, compact: compact)
                        if got != (compact ? expectedCompact : expected) {
                            mismatches.withLock { $0.append("thread \(thread), round \(round)") }
                        }
                        // keeps(): the manifest filter's path, on the same states.
                        for input in Self.inputs where expressions[3].keeps(input) != shared[3].keeps(input) {
                            mismatches.withLock { $0.append("keeps, thread \(thread), round \(round)") }
                        }
                    }
                    if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.resume() }
                }.start()
            }
        }
        #expect(mismatches.withLock { $0 }.isEmpty)
    }
}
