import Foundation
import NIOCore
import NIOHTTP1

/// One connection of the `FixtureServer`: records each request and answers with its scripted response, late,
/// cut short or stalled as scripted. Runs on the connection's event loop.
final class FixtureResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let shared: FixtureServer.Shared
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(shared: FixtureServer.Shared) {
        self.shared = shared
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            let request = Self.record(head, body: Data(body.readableBytesView))
            guard let scripted = shared.take(request) else {
                let missing = FixtureResponse(status: 404, body: Data("no fixture route for \(request.path)".utf8))
                answer(missing, keepAlive: head.isKeepAlive, context: context)
                return
            }
            guard scripted.delay > 0 else {
                answer(scripted, keepAlive: head.isKeepAlive, context: context)
                return
            }
            let keepAlive = head.isKeepAlive
            shared.stall(scripted.delay, on: context.eventLoop) {
                self.answer(scripted, keepAlive: keepAlive, context: context)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private static func record(_ head: HTTPRequestHead, body: Data) -> RecordedRequest {
        let components = URLComponents(string: head.uri)
        return RecordedRequest(
            method: head.method.rawValue, path: components?.path ?? head.uri,
            queryItems: components?.queryItems?.map { URLQueryItem(name: $0.name, value: $0.value ?? "") } ?? [],
            target: head.uri,
            headers: Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 }),
            body: body)
    }

    /// Writes `scripted` (or breaks the exchange as its fault says); the request stops counting as in flight as its
    /// last bytes are written or the connection is dropped.
    private func answer(_ scripted: FixtureResponse, keepAlive: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else {
            shared.finished()
            return
        }
        let bytes = scripted.body
        switch scripted.fault {
        case .closeWithoutResponse:
            shared.finished()
            context.close(promise: nil)
        case nil:
            writeHead(scripted, context: context)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes)))), promise: nil)
            finish(keepAlive: keepAlive, context: context)
        case .truncateBody(let afterBytes):
            writeHead(scripted, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes.prefix(afterBytes))))))
                .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            shared.finished()
        case .stallBody(let afterBytes, let seconds):
            writeHead(scripted, context: context)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes.prefix(afterBytes))))),
                                  promise: nil)
            shared.stall(seconds, on: context.eventLoop) {
                guard context.channel.isActive else {
                    self.shared.finished()
                    return
                }
                context.write(self.wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: bytes.dropFirst(afterBytes))))),
                              promise: nil)
                self.finish(keepAlive: keepAlive, context: context)
            }
        }
    }

    private func writeHead(_ scripted: FixtureResponse, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        for header in scripted.headers { headers.add(name: header.name, value: header.value) }
        if scripted.status != 204, scripted.status != 304, !headers.contains(name: "Content-Length") {
            headers.add(name: "Content-Length", value: String(scripted.body.count))
        }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: scripted.status),
                                    headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    /// Sends the response's end. The request stops counting as in flight first: once the bytes are out, the client
    /// may send its next request at once, and another event loop may read it before this one counted this one done.
    private func finish(keepAlive: Bool, context: ChannelHandlerContext) {
        shared.finished()
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            if !keepAlive { context.close(promise: nil) }
        }
    }
}
