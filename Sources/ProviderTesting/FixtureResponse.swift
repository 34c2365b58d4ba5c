import Foundation

/// One scripted answer of the loopback `FixtureServer`: a recorded status, headers and body, optionally
/// late (latency) or broken on the wire (a fault).
public struct FixtureResponse: Sendable {
    /// Ways to break the exchange below HTTP.
    public enum Fault: Sendable, Hashable {
        /// Close the connection as soon as the request is read, with no response at all.
        case closeWithoutResponse
        /// Send the headers (with the full `Content-Length`) and the first `afterBytes` bytes of the body,
        /// then close the connection.
        case truncateBody(afterBytes: Int)
        /// Send the headers and the first `afterBytes` bytes, wait `seconds`, then send the rest
        /// (a slow body, for timeouts that strike mid-transfer).
        case stallBody(afterBytes: Int, seconds: Double)
    }

    /// The HTTP status sent.
    public var status: Int
    /// Header fields sent besides `Content-Length`, in order.
    public var headers: [(name: String, value: String)]
    /// The body sent (all of it unless a ``Fault`` cuts it).
    public var body: Data
    /// Seconds to wait before answering.
    public var delay: TimeInterval
    /// How the exchange breaks below HTTP; nil answers normally.
    public var fault: Fault?

    /// An answer; a 200 with no header and no body by default.
    public init(
        status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data(),
        delay: TimeInterval = 0, fault: Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
    }

    /// A JSON body given as text, with `Content-Type: application/json; charset=utf-8`.
    public static func json(
        _ text: String, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> FixtureResponse {
        FixtureResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: Data(text.utf8))
    }

    /// A recorded body read from a file (a test target's `Fixtures/`).
    public static func file(
        _ url: URL, status: Int = 200, contentType: String = "application/json; charset=utf-8",
        headers: [(name: String, value: String)] = []
    ) throws -> FixtureResponse {
        FixtureResponse(status: status, headers: [("Content-Type", contentType)] + headers, body: try Data(contentsOf: url))
    }

    /// A recorded response shipped in a test target's `Fixtures/` folder (`resources: [.copy("Fixtures")]`):
    /// `try .recorded("search.json", in: .module)`.
    public static func recorded(
        _ name: String, in bundle: Bundle, status: Int = 200, contentType: String = "application/json; charset=utf-8",
        headers: [(name: String, value: String)] = []
    ) throws -> FixtureResponse {
        guard let url = bundle.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/\(name)"])
        }
        return try .file(url, status: status, contentType: contentType, headers: headers)
    }

    /// The same response after `seconds` of latency.
    public func delayed(_ seconds: TimeInterval) -> FixtureResponse {
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// The same response broken by `fault`.
    public func with(_ fault: Fault) -> FixtureResponse {
        var copy = self
        copy.fault = fault
        return copy
    }
}

/// A request the `FixtureServer` received, for assertions (what was sent, how often).
public struct RecordedRequest: Sendable, Hashable {
    /// The request method (`GET`, `POST`, …).
    public var method: String
    /// The path, without the query.
    public var path: String
    /// Query items, percent-decoded, in order.
    public var queryItems: [URLQueryItem]
    /// The request target exactly as sent (`/data/2.5/weather?q=Seoul&appid=…`).
    public var target: String
    /// Header names lowercased.
    public var headers: [String: String]
    /// The request's body as received (a webhook's payload).
    public var body: Data

    /// A recorded request, as the server makes one.
    public init(
        method: String, path: String, queryItems: [URLQueryItem], target: String, headers: [String: String],
        body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The last value of query item `name`.
    public func query(_ name: String) -> String? {
        queryItems.last { $0.name == name }?.value
    }

    /// The value of header `name` (ignoring case), if the request sent it.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
