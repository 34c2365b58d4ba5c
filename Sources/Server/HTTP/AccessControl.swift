import Crypto
import Foundation
import HTTPClient
import Hummingbird

/// Who may ask: with a token, every request but the health probes and the login form carries it, as
/// `Authorization: Bearer …` or as the session cookie the login form sets. Without one the server listens on
/// loopback only, and anyone on this machine may read and refresh; it then answers only requests that name it by
/// a loopback name (`Host`), so a web page whose own name a DNS trick points at 127.0.0.1 gets nothing.
struct AccessControl: Sendable {
    static let cookieName = "aggregate_session"
    /// Paths open without a credential: probes must work for a service manager, the form is how one logs in.
    static let open: Set<String> = ["/healthz", "/readyz", "/login", "/logout", "/dashboard.css", "/favicon.ico"]

    private let token: ServeToken?

    init(token: ServeToken?) {
        self.token = token
    }

    var requiresToken: Bool { token != nil }

    /// What the session cookie holds: a keyed digest of the token, never the token itself.
    var sessionValue: String? {
        guard let token else { return nil }
        let key = SymmetricKey(data: Data(token.value.utf8))
        return Data(HMAC<SHA256>.authenticationCode(for: Data("aggregate-session-v1".utf8), using: key)).hexDigits
    }

    /// Whether `request` proves it knows the token (always false without a token).
    func isAuthenticated(_ request: Request) -> Bool {
        guard let token else { return false }
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer",
               Self.constantTimeEqual(String(parts[1]).trimmingCharacters(in: .whitespaces), token.value) {
                return true
            }
        }
        if let session = Self.cookie(Self.cookieName, in: request), let expected = sessionValue {
            return Self.constantTimeEqual(session, expected)
        }
        return false
    }

    /// Whether `given` is the token (the login form).
    func accepts(token given: String) -> Bool {
        guard let token else { return false }
        return Self.constantTimeEqual(given.trimmingCharacters(in: .whitespacesAndNewlines), token.value)
    }

    /// May `request` read? Without a token: yes.
    func mayRead(_ request: Request) -> Bool {
        // The reader APIs check their own account (`ReaderMiddleware`): reader apps know no serve token.
        token == nil || Self.open.contains(request.uri.path) || ReaderMiddleware.handles(request.uri.path) || isAuthenticated(request)
    }

    /// May `request` refresh a source? With a token: when it proves it; without one: anyone on this machine
    /// (a refresh only runs a source sooner: it changes nothing a read could not see, and a source that is
    /// running already is not run twice). The origin is checked apart (`APIRoutes.refresh`).
    func mayRefresh(_ request: Request) -> Bool {
        token == nil || isAuthenticated(request)
    }

    /// Without a token, only a request naming the server by a loopback name (`127.0.0.1`, `localhost`, `[::1]`,
    /// with any port) or by no name is answered: the defence against DNS rebinding, where a page at
    /// `evil.example` has its name point at 127.0.0.1 and reads this server as its own origin. With a token
    /// every name is fine: the token is the defence.
    func acceptsHost(_ request: Request) -> Bool {
        guard token == nil, let authority = request.head.authority, !authority.isEmpty else { return true }
        // `Host` is `--listen`'s shape, its port optional.
        return (ListenAddress(authority) ?? ListenAddress(authority + ":0"))?.isLoopback == true
    }

    /// Compares digests of both, so neither the length nor the first differing byte shows in the time taken.
    static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(SHA256.hash(data: Data(given.utf8)))
        let b = Array(SHA256.hash(data: Data(expected.utf8)))
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                    return parts[1].trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }
}

/// Refuses what the server never serves before any route runs: an over-long target (414), a request that
/// names the server by a name other than loopback when it has no token (403), a request without a credential
/// when a token is configured (401).
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    static var maxTargetBytes: Int { 4096 }
    let access: AccessControl
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        if request.uri.string.utf8.count > Self.maxTargetBytes {
            response = RequestProblem(.uriTooLong, "the request target is longer than \(Self.maxTargetBytes) bytes").response
        } else if !access.acceptsHost(request) {
            response = RequestProblem(.forbidden, "this server answers to 127.0.0.1, localhost and [::1] only; "
                + "to serve other names, configure a token (--token-file or AGGREGATE_SERVE_TOKEN)").response
        } else if !access.mayRead(request) {
            // A person at the dashboard is sent to the login form; programs get the 401.
            response = request.uri.path == "/" ? Response(status: .seeOther, headers: [.location: "/login"]) : Self.unauthorized
        } else {
            response = try await next(request, context)
        }
        metrics.served(route: Self.route(request.uri.path), status: response.status.code)
        return response
    }

    static var unauthorized: Response {
        var response = RequestProblem(.unauthorized, "this server needs its token: Authorization: Bearer <token>").response
        response.headers[.wwwAuthenticate] = "Bearer realm=\"aggregate\""
        return response
    }

    /// A bounded label for a path (never the raw path: ids and junk would grow the metrics without end).
    static func route(_ path: String) -> String {
        if path.hasPrefix("/api/sources/"), path.hasSuffix("/refresh") { return "/api/sources/{id}/refresh" }
        if path.hasPrefix("/cards/") { return "/cards/{id}" }
        if path.hasPrefix("/sources/") { return "/sources/{id}" }
        if GoogleReaderRoutes.handles(path) { return "/reader/api/0" }
        if FeverRoutes.handles(path) { return "/fever" }
        let known: Set<String> = [
            "/", "/login", "/logout", "/api/report", "/api/items", "/api/sources", "/api/openapi.json", "/events",
            "/metrics", "/healthz",
            "/readyz", "/feed.atom", "/feed.json", "/dashboard.js", "/dashboard.css", "/favicon.ico", "/items", "/summary",
        ]
        return known.contains(path) ? path : "other"
    }
}
