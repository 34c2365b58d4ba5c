import Domain
import Foundation
import Logging
import ProviderKit

/// The provider contract as a reusable test suite. Each check returns its violations as sentences (empty
/// when the provider conforms), so any test framework can assert on them:
///
///     @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
///     func contract(_ check: ConformanceCheck) async throws {
///         let violations = try await ProviderConformance.run(check, on: Self.subject)
///         #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
///     }
///
/// HTTP subjects are run against a fresh loopback `FixtureServer` per scenario; local subjects run as given.
/// Checks that cannot apply to a subject (concurrency of a local source, a stall without `stalledOptions`)
/// report that as a violation, so a test never passes without checking anything.
public enum ProviderConformance {
    /// Runs `check` on `subject` and returns its violations, each a sentence naming the scenario; empty when the
    /// provider keeps that part of the contract. Secrets in them are masked.
    public static func run(_ check: ConformanceCheck, on subject: ConformanceSubject) async throws -> [String] {
        // Violations quote messages and logs: mask the secrets so a failing check does not print them itself.
        try await violations(check, subject).map { violation in
            subject.secrets.reduce(violation) { $0.replacingOccurrences(of: $1, with: "<SECRET>") }
        }
    }

    private static func violations(_ check: ConformanceCheck, _ subject: ConformanceSubject) async throws -> [String] {
        switch check {
        case .optionPaths: try await optionPaths(subject)
        case .errorTaxonomy: try await errorTaxonomy(subject)
        case .secrecy: try await secrecy(subject)
        case .timeout: try await timeout(subject)
        case .boundedConcurrency: try await boundedConcurrency(subject)
        case .stableItems: try await stableItems(subject)
        }
    }

    /// The JSON path of the options object in `SourceConfiguration.testing`.
    static let root = "sources[0].options"

    /// The seconds a stalled source is given. Whether its report came before a stall ended is told by the
    /// server's requests in flight, not by a clock: the check ends the stalls itself once it has judged.
    static let stallTimeout = 1.0

    /// The timeouts a stalled HTTP source is tried with, in turn, until its first request reached the server
    /// before the deadline (a full test suite on two cores has held a request back for more than a second).
    static let stallTimeouts = [stallTimeout, 4, 16]

    /// How long a stall lasts unless the check releases it: only a provider that waits for it sees the end.
    static let stallSeconds = 120.0

    /// Fragments that betray an unmapped error or a Swift value dumped into a message.
    static let leakedInternals = [
        "URLError", "NSURLErrorDomain", "Error Domain=", "DecodingError", "keyNotFound(", "typeMismatch(",
        "valueNotFound(", "dataCorrupted(", "CodingKeys(", "Optional(", "Swift.", "Foundation.",
    ]

    // MARK: - Running sources

    /// One run of a source: its report, every log line it wrote, how long it took.
    struct Run {
        var report: SourceReport
        var logs: [String]
        var seconds: Double
    }

    static func configuration(
        _ subject: ConformanceSubject, options: JSONValue, timeoutSeconds: Double, concurrency: Int, logger: Logger
    ) -> SourceConfiguration {
        var baseDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if case .local(_, let directory) = subject.backend { baseDirectory = directory }
        return .testing(
            id: subject.name, options: options, timeoutSeconds: timeoutSeconds, concurrency: concurrency,
            logger: logger, baseDirectory: baseDirectory)
    }

    static func makeSource(_ subject: ConformanceSubject, options: JSONValue) throws(ManifestError) -> any ItemSource {
        try subject.provider.makeSource(configuration(
            subject, options: options, timeoutSeconds: SourceRunner.roomyTimeout, concurrency: 4, logger: Logger(label: "conformance") { _ in
                SwiftLogNoOpLogHandler()
            }))
    }

    /// Builds and runs a source with a capturing logger. Throws when the options are refused.
    static func run(
        _ subject: ConformanceSubject, options: JSONValue, timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4
    ) async throws -> Run {
        let capture = LogCapture()
        let source = try subject.provider.makeSource(configuration(
            subject, options: options, timeoutSeconds: timeoutSeconds, concurrency: concurrency, logger: capture.logger()))
        let start = DispatchTime.now()
        let report = await SourceRunner.run(
            source, id: subject.name, provider: subject.provider.name, timeoutSeconds: timeoutSeconds, concurrency: concurrency)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return Run(report: report, logs: capture.messages, seconds: seconds)
    }

    /// Runs `body` with a fresh loopback server answering every request with `responses`.
    static func withServer<T>(
        _ responses: [FixtureResponse], routes: [String: [FixtureResponse]] = [:], _ body: (FixtureServer) async throws -> T
    ) async throws -> T {
        let server = try await FixtureServer.start()
        if !responses.isEmpty { server.fallback(responses) }
        for (path, answers) in routes where !answers.isEmpty { server.route(path, answers) }
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The subject's own endpoints (`ConformanceSubject.routes`), each answer made by `transform` exactly as the
    /// fallback's is (a fault, a stall, a delay): every endpoint of the service misbehaves alike.
    static func routes(
        _ subject: ConformanceSubject, _ transform: (FixtureResponse) -> [FixtureResponse] = { [$0] }
    ) throws -> [String: [FixtureResponse]] {
        try subject.routes().mapValues(transform)
    }

    /// The subject's working options for `baseURL` (HTTP) or as given (local).
    static func workingOptions(_ subject: ConformanceSubject, baseURL: URL) -> JSONValue {
        switch subject.backend {
        case .http(let options, _): options(baseURL)
        case .local(let options, _): options
        }
    }

    /// `options` with retries switched off where the provider has the shared `maxRetries` option, so a
    /// scripted fault is final.
    static func withoutRetries(_ options: JSONValue, _ subject: ConformanceSubject) -> JSONValue {
        guard case .object(var object) = options, subject.provider.options.contains(where: { $0.name == "maxRetries" }) else {
            return options
        }
        object["maxRetries"] = 0
        return .object(object)
    }

    // MARK: - Judging texts

    /// Why `message` is not a short human message, if it is not.
    static func messageProblem(_ message: String) -> String? {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "is empty" }
        if trimmed.allSatisfy(\.isNumber) { return "is a bare number" }
        if let leak = leakedInternals.first(where: { message.contains($0) }) { return "shows an internal error ('\(leak)')" }
        return nil
    }

    /// Texts that contain a secret, with the secret masked so the violation itself does not print it.
    static func leaks(in texts: [String], secrets: [String], context: String) -> [String] {
        var found: [String] = []
        for text in texts {
            for secret in secrets where text.contains(secret) {
                found.append("\(context): a secret is printed in \"\(text.replacingOccurrences(of: secret, with: "<SECRET>"))\"")
            }
        }
        return found
    }
}
