import CompressNIO
import Crypto
import Foundation
import HTTPClient
import Hummingbird
import NIOCore
import Synchronization

/// A response body with its validator, and its gzip form once someone asked for it.
struct Representation: Sendable {
    var body: ByteBuffer
    var contentType: String
    /// A strong ETag: a digest of the bytes, so it is the same for the same bytes and never for others.
    var etag: String
    var gzipped: ByteBuffer?
    /// Sent with it besides the content headers (a page's security headers).
    var headers: HTTPFields

    init(_ bytes: [UInt8], contentType: String, headers: HTTPFields = [:]) {
        self.body = ByteBuffer(bytes: bytes)
        self.contentType = contentType
        self.headers = headers
        let digest = SHA256.hash(data: bytes).prefix(12).hexDigits
        self.etag = "\"\(digest)\""
    }

    /// Bodies this small are sent as they are: gzip would save little.
    static let minimumGzipBytes = 1024

    /// The response for `request`: 304 when its `If-None-Match` names this ETag, gzip when it accepts it.
    func response(to request: Request, gzip: ByteBuffer?) -> Response {
        var headers = self.headers
        headers[.contentType] = contentType
        headers[.eTag] = etag
        headers[.vary] = "Accept-Encoding"
        headers[.cacheControl] = "no-cache"
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        if let gzip {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: gzip))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// `If-None-Match: "a", W/"b"` or `*` (weak comparison, as RFC 9110 asks for it).
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }

    /// Whether `request` takes gzip (`Accept-Encoding: gzip`, not with `q=0`).
    static func acceptsGzip(_ request: Request) -> Bool {
        guard let accept = request.headers[.acceptEncoding] else { return false }
        return accept.split(separator: ",").contains { coding in
            let parts = coding.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "gzip" || parts.first == "x-gzip" else { return false }
            return !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
        }
    }

    static func compress(_ buffer: ByteBuffer) -> ByteBuffer? {
        var input = buffer
        return try? input.compress(with: .gzip())
    }
}

/// Rendered bodies of the current state, by request target: a state seen by many clients (a dashboard on
/// many screens, a scraper, a benchmark) is rendered and compressed once. Cleared when the state changes, and
/// bounded in entries and bytes (every response is bounded, so one entry is small; the cap keeps many distinct
/// queries from holding many copies of the items' text).
final class RepresentationCache: Sendable {
    private struct State {
        var version = -1
        var entries: [String: Representation] = [:]
        var bytes = 0
    }

    private let state = Mutex(State())
    static let maxEntries = 256
    static let maxBytes = 16 << 20

    /// The body of `request` under state `version`, when cached.
    func cached(_ request: Request, version: Int, variant: String = "") -> Representation? {
        let key = variant + request.uri.description
        return state.withLock { state in state.version == version ? state.entries[key] : nil }
    }

    /// The response for `request` under state `version`, rendering with `render` when not cached; `variant`
    /// tells apart bodies of one target that differ by viewer (a page with or without refresh buttons).
    func respond(
        to request: Request, version: Int, variant: String = "", render: () throws(RequestProblem) -> Representation
    ) throws(RequestProblem) -> Response {
        let key = variant + request.uri.description
        let gzip = Representation.acceptsGzip(request)
        var cached = state.withLock { state in state.version == version ? state.entries[key] : nil }
        if cached == nil { cached = try render() }
        guard var representation = cached else { return Response(status: .internalServerError) }
        var compressed: ByteBuffer?
        if gzip, representation.body.readableBytes >= Representation.minimumGzipBytes {
            compressed = representation.gzipped ?? Representation.compress(representation.body)
            representation.gzipped = compressed
        }
        state.withLock { state in
            if state.version != version {
                guard version > state.version else { return }  // an older state's body is not kept
                state.version = version
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            let size = representation.body.readableBytes + (representation.gzipped?.readableBytes ?? 0)
            guard size <= Self.maxBytes / 4 else { return }  // a body this large is rendered each time
            if state.entries.count >= Self.maxEntries || state.bytes + size > Self.maxBytes {
                state.entries.removeAll(keepingCapacity: true)
                state.bytes = 0
            }
            if let previous = state.entries.updateValue(representation, forKey: key) {
                state.bytes -= previous.body.readableBytes + (previous.gzipped?.readableBytes ?? 0)
            }
            state.bytes += size
        }
        return representation.response(to: request, gzip: compressed)
    }
}

extension RepresentationCache {
    /// `respond(to:version:variant:render:)` for a body read from the store: `render` runs (off the event loop,
    /// as the reads it makes choose) only when no body of `version` is cached.
    func respond(
        to request: Request, version: Int, variant: String = "",
        reading render: @Sendable () async throws(RequestProblem) -> Representation
    ) async throws(RequestProblem) -> Response {
        let rendered: Representation
        if let cached = cached(request, version: version, variant: variant) {
            rendered = cached
        } else {
            rendered = try await render()
        }
        return try respond(to: request, version: version, variant: variant) { () throws(RequestProblem) -> Representation in rendered }
    }
}

/// A request the server refuses: its status, the parameter at fault and why (a JSON error body).
struct RequestProblem: Error, Sendable {
    var status: HTTPResponse.Status
    var parameter: String?
    var message: String

    init(_ status: HTTPResponse.Status = .badRequest, parameter: String? = nil, _ message: String) {
        self.status = status
        self.parameter = parameter
        self.message = message
    }

    var response: Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: ServeJSON.error(message, parameter: parameter))))
    }
}
