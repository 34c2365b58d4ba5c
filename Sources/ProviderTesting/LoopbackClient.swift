import Foundation
import HTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix

/// An HTTP/1.1 client for tests that ask a server on this machine (`aggregate serve`, a worker's `/metrics`) and
/// must see its answers as sent: no redirect followed, no body inflated, no request repeated, a new connection for
/// each request (closed once its answer ended), so no test meets a kept-alive connection the server has just closed.
///
///     let report = try await LoopbackClient.send(HTTPRequest(url: base.appending(path: "api/report")))
///     let events = try await LoopbackClient.open(HTTPRequest(url: base.appending(path: "events")))
///     while let line = try await events.nextLine() { … }
///
/// `CurlHTTPClient` is a source's transport and decides for its caller (it inflates, follows a same-host redirect,
/// repeats a GET that got a 5xx) and hands over whole bodies; this one reads a body as it comes (server-sent
/// events). It runs on SwiftNIO's event loop threads, never on Swift's cooperative pool.
public enum LoopbackClient {
    /// Sends `request` and returns the whole answer, whatever its status; throws when the connection fails or
    /// closes early, or no whole answer came within `timeout`.
    public static func send(_ request: HTTPRequest, timeout: Duration = .seconds(30)) async throws -> HTTPResponse {
        let stream = try await open(request, timeout: timeout, timingBody: true)
        var body = Data()
        while let chunk = try await stream.nextChunk() { body.append(contentsOf: chunk) }
        return HTTPResponse(status: stream.status, headers: stream.headers, body: body, url: request.url)
    }

    /// Sends `request` and returns once the answer's head came (within `timeout`), its body still to read, as it
    /// arrives and for as long as it lasts. The connection closes when the body ends, on `close()`, when the stream
    /// is released, or when the task reading it is cancelled.
    public static func open(_ request: HTTPRequest, timeout: Duration = .seconds(30)) async throws -> LoopbackStream {
        try await open(request, timeout: timeout, timingBody: false)
    }

    private static func open(_ request: HTTPRequest, timeout: Duration, timingBody: Bool) async throws -> LoopbackStream {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
              components.scheme == "http", let host = components.host, ["127.0.0.1", "localhost", "::1"].contains(host),
              let port = components.port
        else { throw LoopbackClientError.notLoopback(request.url.absoluteString) }
        let (parts, continuation) = AsyncThrowingStream.makeStream(of: HTTPClientResponsePart.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(TimeAmount(timeout))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(ResponseReader(continuation))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            continuation.finish(throwing: error)
            throw error
        }
        continuation.onTermination = { _ in channel.close(promise: nil) }
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            continuation.finish(throwing: LoopbackClientError.noAnswer(request.url.absoluteString, timeout))
        }

        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: target)
        for field in request.headers { head.headers.add(name: field.name, value: field.value) }
        if !head.headers.contains(name: "Host") { head.headers.add(name: "Host", value: "\(host):\(port)") }
        if request.body != nil || ![.get, .head].contains(request.method) {
            head.headers.replaceOrAdd(name: "Content-Length", value: String(request.body?.count ?? 0))
        }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body = request.body { channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil) }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)

        var iterator = parts.makeAsyncIterator()
        let first: HTTPClientResponsePart?
        do {
            first = try await iterator.next()
        } catch let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode) {
            throw LoopbackClientError.closedBeforeAnswer(request.url.absoluteString)
        } catch ChannelError.eof {
            throw LoopbackClientError.closedBeforeAnswer(request.url.absoluteString)
        }
        guard case .head(let answer) = first else {
            try Task.checkCancellation()  // a cancelled wait ends the stream too (and closes the connection)
            throw LoopbackClientError.closedBeforeAnswer(request.url.absoluteString)
        }
        if !timingBody { timer.cancel() }
        var headers = HTTPClient.HTTPHeaders()
        for (name, value) in answer.headers { headers.add(name, value) }
        return LoopbackStream(status: Int(answer.status.code), headers: headers, parts: iterator, timer: timer, channel: channel)
    }
}

/// An answer whose body is read as it arrives: chunk by chunk, or line by line (`text/event-stream`). One task reads
/// it at a time.
public final class LoopbackStream {
    /// The answer's status code.
    public let status: Int
    /// The answer's header fields.
    public let headers: HTTPClient.HTTPHeaders
    private var parts: AsyncThrowingStream<HTTPClientResponsePart, any Error>.AsyncIterator
    /// Body bytes read but not yet handed out by `nextLine`.
    private var pending: [UInt8] = []
    private let timer: Scheduled<Void>
    private let channel: any Channel

    fileprivate init(
        status: Int, headers: HTTPClient.HTTPHeaders, parts: AsyncThrowingStream<HTTPClientResponsePart, any Error>.AsyncIterator,
        timer: Scheduled<Void>, channel: any Channel
    ) {
        self.status = status
        self.headers = headers
        self.parts = parts
        self.timer = timer
        self.channel = channel
    }

    deinit { close() }

    /// The body's next bytes as they arrived; nil once it ended. Throws when the connection closed mid-body.
    public func nextChunk() async throws -> [UInt8]? {
        if !pending.isEmpty {
            defer { pending = [] }
            return pending
        }
        while let part = try await parts.next() {
            switch part {
            case .head: continue
            case .body(let buffer): return Array(buffer: buffer)
            case .end:
                timer.cancel()
                return nil
            }
        }
        return nil
    }

    /// The body's next line without its line break ("\n" or "\r\n"), as soon as it is whole; the last line even
    /// without a break; nil once the body ended.
    public func nextLine() async throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = pending[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                defer { pending.removeSubrange(...newline) }
                return String(decoding: line, as: UTF8.self)
            }
            var chunk: [UInt8]?
            while let part = try await parts.next() {
                if case .body(let buffer) = part { chunk = Array(buffer: buffer); break }
                if case .end = part { timer.cancel(); break }
            }
            guard let chunk else {
                defer { pending = [] }
                return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
            }
            pending += chunk
        }
    }

    /// Closes the connection: the server sees the client go.
    public func close() {
        timer.cancel()
        channel.close(promise: nil)
    }
}

/// Why a ``LoopbackClient`` request got no answer.
public enum LoopbackClientError: Error, Equatable, CustomStringConvertible {
    /// The URL is not `http://` on this machine.
    case notLoopback(String)
    /// The URL did not answer within the duration.
    case noAnswer(String, Duration)
    /// The server closed the connection before any byte of an answer: a server that read no request (one it closed
    /// for idleness as the request arrived) answers nothing, so the request may be sent again.
    case closedBeforeAnswer(String)

    /// What happened, naming the URL.
    public var description: String {
        switch self {
        case .notLoopback(let url): "LoopbackClient asks http:// servers on this machine only, not \(url)"
        case .noAnswer(let url, let timeout): "no answer from \(url) within \(timeout)"
        case .closedBeforeAnswer(let url): "\(url) closed the connection before answering"
        }
    }
}

/// Hands the decoded answer to the stream; finishes it when the answer ended, failed or the connection closed.
private final class ResponseReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private let continuation: AsyncThrowingStream<HTTPClientResponsePart, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<HTTPClientResponsePart, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        continuation.yield(part)
        if case .end = part {
            continuation.finish()
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish(throwing: ChannelError.eof)  // no effect after the end
        context.fireChannelInactive()
    }
}
