import Domain
import Foundation
import ProviderKit

/// One part of the provider contract that `ProviderConformance` checks.
public enum ConformanceCheck: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Bad options are refused with every problem at a JSON path under `sources[0].options`: unknown keys,
    /// missing required options, options that are not an object, and the subject's own invalid cases.
    case optionPaths
    /// Every failure is a Domain `SourceError` of the expected kind with a short human message (no
    /// `URLError`, `DecodingError` or Swift type names).
    case errorTaxonomy
    /// No secret appears in errors, warnings, items, verbose logs or option problems, even when the service
    /// echoes it back.
    case secrecy
    /// A stalled service (or program) makes the source `timeout` within its time, and nothing new starts
    /// after the deadline.
    case timeout
    /// No more requests are in flight at once than the source's `concurrency` (measured by the server).
    case boundedConcurrency
    /// Items have non-empty ids and the expected kind; two runs give the same ids and field keys.
    case stableItems

    /// The check's name, as a test's arguments show it.
    public var description: String { rawValue }
}

/// A way an HTTP exchange can fail, and the `SourceError.Kind` it must become.
public enum HTTPFault: String, Sendable, Hashable, CaseIterable {
    /// A 401 whose body echoes the key.
    case unauthorized401
    /// A 403 whose body echoes the key.
    case forbidden403
    /// A 404.
    case notFound404
    /// A 429.
    case rateLimited429
    /// A 500.
    case serverError500
    /// A 503.
    case unavailable503
    /// A 200 whose body is not JSON.
    case malformedJSON
    /// A 200 whose body is an HTML page.
    case htmlInsteadOfJSON
    /// The connection closes halfway through the body.
    case truncatedBody
    /// The connection closes before any answer.
    case closedWithoutResponse
    /// Nothing listens at the base URL.
    case connectionRefused

    /// The kind of `SourceError` a provider must report for the fault, unless the subject says otherwise.
    public var defaultKind: SourceError.Kind {
        switch self {
        case .unauthorized401, .forbidden403: .unauthorized
        case .notFound404: .notFound
        case .rateLimited429: .rateLimited
        case .serverError500, .unavailable503, .truncatedBody, .closedWithoutResponse, .connectionRefused: .network
        case .malformedJSON, .htmlInsteadOfJSON: .badResponse
        }
    }

    /// The scripted answer; `secret` is echoed in bodies that a careless provider might print.
    func response(success: FixtureResponse, secret: String) -> FixtureResponse? {
        let echo = #"{"message":"bad request for key \#(secret)","status_message":"key \#(secret)"}"#
        switch self {
        case .unauthorized401: return .json(echo, status: 401)
        case .forbidden403: return .json(echo, status: 403)
        case .notFound404: return .json(echo, status: 404)
        case .rateLimited429: return .json(echo, status: 429, headers: [("Retry-After", "1")])
        case .serverError500: return .json(echo, status: 500)
        case .unavailable503: return FixtureResponse(status: 503, body: Data("down for key \(secret)".utf8))
        case .malformedJSON: return .json(#"{"items": [ {"id": "\#(secret)""#)
        case .htmlInsteadOfJSON:
            return FixtureResponse(status: 200, headers: [("Content-Type", "text/html")],
                                   body: Data("<html><body>key \(secret)</body></html>".utf8))
        case .truncatedBody: return success.with(.truncateBody(afterBytes: max(1, success.body.count / 3)))
        case .closedWithoutResponse: return success.with(.closeWithoutResponse)
        case .connectionRefused: return nil
        }
    }
}

/// What the conformance suite needs to know about one provider. One value per provider, usually a static
/// property of the provider's conformance test suite:
///
///     static let subject = ConformanceSubject.http(
///         "openweather", provider: OpenWeatherProvider(), kind: .weather, secrets: [apiKey],
///         options: { baseURL in ["cities": ["A", "B", "C"], "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)] },
///         success: { try Fixture.zocca.response() })
public struct ConformanceSubject: Sendable {
    /// Where a source of this provider reads from.
    public enum Backend: Sendable {
        /// A service: `options` point a working source at the loopback server's base URL (with at least three
        /// requests' worth of units, so concurrency can be measured); `success` answers every request it makes.
        case http(options: @Sendable (URL) -> JSONValue, success: @Sendable () throws -> FixtureResponse)
        /// Local files or programs: `options` make a working source, relative paths resolved in `baseDirectory`.
        case local(options: JSONValue, baseDirectory: URL)
    }

    /// Options the provider must refuse, with a JSON path one of the problems must name.
    public struct InvalidOptions: Sendable {
        /// Names the case in a violation.
        public var label: String
        /// The source's whole `options`.
        public var options: JSONValue
        /// A JSON path (`sources[0].options.cities`) one of the problems must name.
        public var path: String

        /// A case named `label`: `options` must be refused with a problem at `path`.
        public init(_ label: String, options: JSONValue, path: String) {
            self.label = label
            self.options = options
            self.path = path
        }
    }

    /// Options whose source must fail with `kind` (local providers; HTTP faults are scripted by the suite).
    public struct Failure: Sendable {
        /// Names the case in a violation.
        public var label: String
        /// The source's whole `options`.
        public var options: JSONValue
        /// The kind the source's error must have.
        public var kind: SourceError.Kind

        /// A case named `label`: a source with `options` must fail with `kind`.
        public init(_ label: String, options: JSONValue, kind: SourceError.Kind) {
            self.label = label
            self.options = options
            self.kind = kind
        }
    }

    /// Names the subject in violations.
    public var name: String
    /// The provider under test.
    public var provider: any Provider
    /// The kind every item of its sources must have.
    public var kind: ItemKind
    /// Values that must never be printed (API keys, tokens, secret environment values).
    public var secrets: [String]
    /// How its sources get their data: HTTP from the suite's fixture server, or this machine.
    public var backend: Backend
    /// Options the provider must refuse (besides the suite's own: unknown keys, a non-object, missing required keys).
    public var invalidOptions: [InvalidOptions]
    /// Options whose sources must fail with a given kind.
    public var failures: [Failure]
    /// Options whose source never finishes by itself (a program that sleeps); HTTP stalls the server instead.
    public var stalledOptions: JSONValue?
    /// Where a provider maps an HTTP fault differently from `HTTPFault.defaultKind`, and says why in a comment.
    public var expectedKinds: [HTTPFault: SourceError.Kind]
    /// HTTP faults whose answer is valid input for this provider (an HTML page, to a provider that reads pages):
    /// the source must stay ok and say what it found in a warning, instead of failing.
    public var warnedFaults: Set<HTTPFault>
    /// Whether `fields` keys must be camelCase (false where they come from the user's data).
    public var camelCaseFieldKeys: Bool
    /// HTTP subjects whose service has more than one kind of answer (a list, then its items): the answer of
    /// each of those paths; `success` answers every other request. Faults, stalls and delays apply to these
    /// answers as to `success`.
    public var routes: @Sendable () throws -> [String: FixtureResponse]

    /// A subject; see each property for what it asks of the provider.
    public init(
        name: String, provider: any Provider, kind: ItemKind, secrets: [String] = [], backend: Backend,
        invalidOptions: [InvalidOptions] = [], failures: [Failure] = [], stalledOptions: JSONValue? = nil,
        expectedKinds: [HTTPFault: SourceError.Kind] = [:], warnedFaults: Set<HTTPFault> = [], camelCaseFieldKeys: Bool = true,
        routes: @escaping @Sendable () throws -> [String: FixtureResponse] = { [:] }
    ) {
        self.name = name
        self.provider = provider
        self.kind = kind
        self.secrets = secrets.filter { !$0.isEmpty }
        self.backend = backend
        self.invalidOptions = invalidOptions
        self.failures = failures
        self.stalledOptions = stalledOptions
        self.expectedKinds = expectedKinds
        self.warnedFaults = warnedFaults
        self.camelCaseFieldKeys = camelCaseFieldKeys
        self.routes = routes
    }

    /// A provider that talks HTTP through the shared client.
    public static func http(
        _ name: String, provider: any Provider, kind: ItemKind, secrets: [String] = [],
        options: @escaping @Sendable (URL) -> JSONValue, success: @escaping @Sendable () throws -> FixtureResponse,
        invalidOptions: [InvalidOptions] = [], expectedKinds: [HTTPFault: SourceError.Kind] = [:],
        warnedFaults: Set<HTTPFault> = [],
        routes: @escaping @Sendable () throws -> [String: FixtureResponse] = { [:] }
    ) -> ConformanceSubject {
        ConformanceSubject(
            name: name, provider: provider, kind: kind, secrets: secrets, backend: .http(options: options, success: success),
            invalidOptions: invalidOptions, expectedKinds: expectedKinds, warnedFaults: warnedFaults, routes: routes)
    }

    /// A provider that reads local files or runs programs.
    public static func local(
        _ name: String, provider: any Provider, kind: ItemKind, options: JSONValue, baseDirectory: URL,
        secrets: [String] = [], failures: [Failure] = [], stalledOptions: JSONValue? = nil,
        invalidOptions: [InvalidOptions] = [], camelCaseFieldKeys: Bool = false
    ) -> ConformanceSubject {
        ConformanceSubject(
            name: name, provider: provider, kind: kind, secrets: secrets,
            backend: .local(options: options, baseDirectory: baseDirectory), invalidOptions: invalidOptions,
            failures: failures, stalledOptions: stalledOptions, camelCaseFieldKeys: camelCaseFieldKeys)
    }
}
