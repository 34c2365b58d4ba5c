import Domain
import Foundation
import ProviderKit

/// One cell of the fault matrix: a way the network or the service can misbehave for one source while
/// another source of the same run stays healthy.
public enum FaultCell: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Nothing listens at the base URL.
    case connectionRefused = "refused"
    /// The base URL's host name does not resolve.
    case dnsFailure = "dns"
    /// The server answers only after the source's timeout.
    case timeoutBeforeHeaders = "no-headers"
    /// The server sends half the body, then stalls past the source's timeout.
    case slowBody = "slow-body"
    /// A 401.
    case unauthorized401 = "401"
    /// A 403 saying the rate limit is exhausted.
    case rateLimited403 = "403-limit"
    /// A 404.
    case notFound404 = "404"
    /// A 429.
    case rateLimited429 = "429"
    /// A 500, then the normal answer: a retry must succeed.
    case serverErrorThenSuccess = "500→ok"
    /// A 503.
    case unavailable503 = "503"
    /// A 200 whose body does not decode.
    case malformedBody = "malformed"
    /// The connection closes halfway through the body.
    case truncatedBody = "truncated"
    /// A body past the source's size cap.
    case overSizeCap = "too-big"
    /// An HTML page where JSON was expected.
    case wrongContentType = "html"
    /// https:// to a server whose certificate is issued by a CA the run does not trust.
    case tlsUntrusted = "tls-untrusted"
    /// https:// to a plain HTTP server: the TLS handshake fails.
    case tlsPlainServer = "tls-plain"

    /// The cell's name, as the matrix's table shows it.
    public var description: String { rawValue }

    /// The kind the faulty source must report; nil means the source must end `ok`.
    public var defaultKind: SourceError.Kind? {
        switch self {
        case .connectionRefused, .dnsFailure, .unavailable503, .truncatedBody, .tlsUntrusted, .tlsPlainServer: .network
        case .timeoutBeforeHeaders, .slowBody: .timeout
        case .unauthorized401: .unauthorized
        case .rateLimited403, .rateLimited429: .rateLimited
        case .notFound404: .notFound
        case .serverErrorThenSuccess: nil
        case .malformedBody, .wrongContentType, .overSizeCap: .badResponse
        }
    }

    /// Whether the cell stalls the server, so the source is given a short timeout.
    var stalls: Bool { self == .timeoutBeforeHeaders || self == .slowBody }

    /// Whether retries stay on (the cell is about what retrying does, or proves a TLS failure is not
    /// retried); otherwise the fault is made final.
    var retries: Bool { [.serverErrorThenSuccess, .unavailable503, .tlsUntrusted, .tlsPlainServer].contains(self) }

    var isTLS: Bool { self == .tlsUntrusted || self == .tlsPlainServer }
}

/// What one cell found: the faulty source's outcome and every way it broke the contract.
public struct FaultMatrixResult: Sendable {
    /// The fault and the provider it was tried on.
    public var cell: FaultCell
    /// `ok`, or the kind of the faulty source's error (`-` when it ended without one).
    public var outcome: String
    /// Every way the provider broke the contract in this cell; empty when it kept it.
    public var violations: [String]
    /// How long the faulty source took.
    public var seconds: Double
}

extension ProviderConformance {
    /// A slow answer takes this long (well past `faultTimeout`), and the faulty source must give up before
    /// `faultBound`: a bound a loaded machine cannot break, that still tells "gave up" from "waited".
    static let faultTimeout = 1.5
    static let slowAnswer = 8.0
    static let faultBound = 6.0

    /// The base URL of a host that cannot resolve (RFC 6761 reserves `.invalid`); https so a credential is allowed.
    static let unresolvableURL = URL(string: "https://aggregate-fault-matrix.invalid")!

    /// Runs every cell of the fault matrix on an HTTP subject. Each cell is one run of the aggregate use case
    /// with two sources: the subject's source against a faulty loopback server, and a second source of the
    /// same provider against a healthy one. A cell holds when the faulty source reports the cell's kind (or
    /// ends ok for `500→ok`), the healthy source's items are those of a clean run, the run counts as failed
    /// (exit 1) exactly when the faulty source failed, and no secret is printed in reports or logs.
    public static func faultMatrix(
        _ subject: ConformanceSubject, expectedKinds: [FaultCell: SourceError.Kind] = [:], cells: [FaultCell] = FaultCell.allCases
    ) async throws -> [FaultMatrixResult] {
        guard case .http(let subjectOptions, let success) = subject.backend else {
            return [FaultMatrixResult(cell: .connectionRefused, outcome: "-", violations: ["not an HTTP subject"], seconds: 0)]
        }
        let options = subjectOptions
        let successResponse = try success()
        let healthyServer = try await FixtureServer.start()
        healthyServer.fallback(successResponse)
        for (path, answers) in try routes(subject) { healthyServer.route(path, answers) }
        defer { Task { await healthyServer.stop() } }
        let baseline = try await run(subject, options: options(healthyServer.baseURL))
        let baselineRequests = healthyServer.requestCount
        guard baseline.report.status == .ok, !baseline.report.items.isEmpty else {
            return [FaultMatrixResult(cell: .connectionRefused, outcome: "-", violations: [
                "the working options gave \(baseline.report.status.rawValue) with \(baseline.report.items.count) items",
            ], seconds: 0)]
        }
        var results: [FaultMatrixResult] = []
        for cell in cells {
            let expected = cell == .serverErrorThenSuccess ? nil : (expectedKinds[cell] ?? cell.defaultKind)
            let secret = subject.secrets.first ?? "s3cr3t-fault-matrix"
            let tlsServer = cell == .tlsUntrusted
                ? try await TLSFixtureServer.start(try await TestCertificates.shared().localhost, body: String(decoding: successResponse.body, as: UTF8.self))
                : nil
            let routes = try routes(subject) { faultResponses(cell, success: $0, secret: secret) }
            let result = try await withServer(faultResponses(cell, success: successResponse, secret: secret), routes: routes) { server in
                let baseURL: URL = switch cell {
                case .connectionRefused: try await FixtureServer.refusedURL()
                case .dnsFailure: unresolvableURL
                case .tlsUntrusted: tlsServer?.baseURL ?? server.baseURL
                case .tlsPlainServer: URL(string: "https://127.0.0.1:\(server.port)")!
                default: server.baseURL
                }
                var faulty = options(baseURL)
                faulty = cell.retries ? faulty : withoutRetries(faulty, subject)
                if cell == .overSizeCap { faulty = setting("maxResponseBytes", to: 64, in: faulty) }
                return try await runPair(
                    subject, faulty: faulty, healthy: options(healthyServer.baseURL),
                    faultyTimeout: cell.stalls ? faultTimeout : SourceRunner.roomyTimeout)
            }
            var violations: [String] = []
            let (faulty, healthy, logs, failed) = result
            let seconds = faulty.duration
            let outcome = faulty.status == .ok ? "ok" : (faulty.error?.kind.rawValue ?? "-")
            if let expected {
                if faulty.error?.kind != expected {
                    violations.append("\(cell): \(faulty.status.rawValue) \(faulty.error?.description ?? ""), expected \(expected.rawValue)")
                }
                if !failed { violations.append("\(cell): the run would exit 0 although a source failed") }
            } else if faulty.status != .ok || failed {
                violations.append("\(cell): \(faulty.status.rawValue) \(faulty.error?.description ?? ""), expected ok after a retry")
            }
            if let message = faulty.error?.message, let why = messageProblem(message) {
                violations.append("\(cell): the message \(why): \(message)")
            }
            if cell.isTLS, let message = faulty.error?.message, !message.contains("TLS: ") || message.contains("retr") {
                violations.append("\(cell): expected a TLS error that was not retried, found: \(message)")
            }
            if let tlsServer {
                // One connection per request of a clean run at most: a retried handshake would make more.
                if tlsServer.connections > baselineRequests {
                    violations.append("\(cell): \(tlsServer.connections) TLS connections for \(baselineRequests) request(s)")
                }
                await tlsServer.stop()
            }
            if healthy.status != .ok || healthy.items.map(\.id) != baseline.report.items.map(\.id) {
                violations.append("\(cell): the healthy source was \(healthy.status.rawValue) with \(healthy.items.count) items, "
                    + "expected ok with \(baseline.report.items.count)")
            }
            if cell.stalls, seconds > faultBound {
                violations.append("\(cell): the source took \(String(format: "%.1f", seconds)) s for a \(faultTimeout) s timeout")
            }
            let texts = SourceRunner.texts(of: faulty) + SourceRunner.texts(of: healthy) + logs
            violations += leaks(in: texts, secrets: subject.secrets, context: cell.rawValue)
            results.append(FaultMatrixResult(cell: cell, outcome: outcome, violations: violations, seconds: seconds))
        }
        return results
    }

    /// The matrix as a table, one row per provider: `✓kind` where a cell holds, `✗kind` where it does not.
    public static func faultMatrixTable(_ rows: [(provider: String, results: [FaultMatrixResult])]) -> String {
        let cells = FaultCell.allCases
        let width = max(13, cells.map(\.rawValue.count).max() ?? 0, (rows.map(\.provider.count).max() ?? 0))
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width + 1 - text.count)) }
        var lines = [pad("provider") + cells.map { pad($0.rawValue) }.joined()]
        for row in rows {
            let byCell = Dictionary(row.results.map { ($0.cell, $0) }, uniquingKeysWith: { first, _ in first })
            lines.append(pad(row.provider) + cells.map { cell in
                guard let result = byCell[cell] else { return pad("n/a") }
                return pad((result.violations.isEmpty ? "✓" : "✗") + result.outcome)
            }.joined())
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Running a cell

    /// The scripted answers of the faulty server for `cell` (empty where no server answers).
    static func faultResponses(_ cell: FaultCell, success: FixtureResponse, secret: String) -> [FixtureResponse] {
        let echo = #"{"message":"bad request for key \#(secret)","status_message":"key \#(secret)"}"#
        let reset = String(Int(Date().timeIntervalSince1970) + 3600)
        switch cell {
        case .connectionRefused, .dnsFailure, .tlsUntrusted, .tlsPlainServer: return []
        case .timeoutBeforeHeaders: return [success.delayed(slowAnswer)]
        case .slowBody: return [success.with(.stallBody(afterBytes: max(1, success.body.count / 2), seconds: slowAnswer))]
        case .unauthorized401: return [.json(echo, status: 401)]
        case .rateLimited403:
            return [.json(echo, status: 403, headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", reset)])]
        case .notFound404: return [.json(echo, status: 404)]
        case .rateLimited429: return [.json(echo, status: 429, headers: [("Retry-After", "1")])]
        case .serverErrorThenSuccess: return [.json(echo, status: 500), success]
        case .unavailable503: return [FixtureResponse(status: 503, body: Data("down for key \(secret)".utf8))]
        case .malformedBody:
            var broken = success
            broken.body = Data(#"{"items": [ {"id": "\#(secret)" <rss><channel"#.utf8)
            return [broken]
        case .truncatedBody: return [success.with(.truncateBody(afterBytes: max(1, success.body.count / 3)))]
        case .overSizeCap: return [success]
        case .wrongContentType:
            return [FixtureResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")],
                                    body: Data("<html><body>Sign in again (key \(secret))</body></html>".utf8))]
        }
    }

    /// One run of the aggregate use case with the subject's source on `faulty` options and a second source
    /// (`healthy` options, its own generous timeout so a loaded machine cannot fail it) beside it: both
    /// reports, every log line, whether the run failed.
    static func runPair(
        _ subject: ConformanceSubject, faulty: JSONValue, healthy: JSONValue, faultyTimeout: Double
    ) async throws -> (SourceReport, SourceReport, [String], Bool) {
        let capture = LogCapture()
        var planned: [PlannedSource] = []
        let pair = [("\(subject.name)-faulty", faulty, faultyTimeout), ("\(subject.name)-healthy", healthy, SourceRunner.roomyTimeout)]
        for (id, options, timeoutSeconds) in pair {
            var configuration = configuration(
                subject, options: options, timeoutSeconds: timeoutSeconds, concurrency: 4, logger: capture.logger())
            configuration.id = id
            let source = try subject.provider.makeSource(configuration)
            let descriptor = SourceDescriptor(id: id, provider: subject.provider.name, timeoutSeconds: timeoutSeconds, concurrency: 4)
            planned.append(PlannedSource(descriptor: descriptor, plan: .load(source)))
        }
        let report = await AggregateSourcesUseCase().execute(planned)
        return (report.sources[0], report.sources[1], capture.messages, report.hasFailures)
    }

    static func setting(_ name: String, to value: JSONValue, in options: JSONValue) -> JSONValue {
        guard case .object(var object) = options else { return options }
        object[name] = value
        return .object(object)
    }
}
