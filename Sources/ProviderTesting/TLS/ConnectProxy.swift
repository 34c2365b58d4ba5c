import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A forward proxy on 127.0.0.1 that understands `CONNECT host:port` (how clients tunnel HTTPS, and how
/// the transport tunnels plain HTTP too) and records each one: the target and the `Proxy-Authorization`
/// header it came with. Anything else is answered 405. Targets must be on loopback (the tests' servers):
/// others are answered 403. With `requiredAuthorization`, a `CONNECT` without that exact
/// `Proxy-Authorization` is answered 407.
///
/// It runs on SwiftNIO's own event loop threads, never on Swift's cooperative pool (docs/TESTING.md).
public final class ConnectProxy: Sendable {
    /// One `CONNECT` the proxy received.
    public struct Tunnel: Sendable, Hashable {
        /// `host:port` the client asked to reach.
        public var target: String
        /// The `Proxy-Authorization` field the client sent, if any.
        public var proxyAuthorization: String?
    }

    /// The loopback port the proxy listens on.
    public let port: Int
    private let channel: any Channel
    private let recorded: Recorded

    final class Recorded: Sendable {
        let tunnels = Mutex<[Tunnel]>([])
    }

    /// `http://127.0.0.1:PORT`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Every `CONNECT` so far, in order.
    public var tunnels: [Tunnel] { recorded.tunnels.withLock { $0 } }

    private init(port: Int, channel: any Channel, recorded: Recorded) {
        self.port = port
        self.channel = channel
        self.recorded = recorded
    }

    /// Starts a proxy on a free loopback port; with `requiredAuthorization`, a `CONNECT` without that exact
    /// `Proxy-Authorization` gets a 407.
    public static func start(requiredAuthorization: String? = nil) async throws -> ConnectProxy {
        let recorded = Recorded()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectHead(recorded: recorded, requiredAuthorization: requiredAuthorization))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        return ConnectProxy(port: port, channel: channel, recorded: recorded)
    }

    /// Stops listening and closes the tunnels.
    public func stop() async {
        try? await channel.close().get()
    }
}

/// Reads the request head; for a `CONNECT` to a loopback target, connects, answers 200 and turns the
/// connection into a byte tunnel (`Splice` both ways).
private final class ConnectHead: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let recorded: ConnectProxy.Recorded
    private let requiredAuthorization: String?
    private var head = ByteBuffer()
    private var connecting = false

    init(recorded: ConnectProxy.Recorded, requiredAuthorization: String?) {
        self.recorded = recorded
        self.requiredAuthorization = requiredAuthorization
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        head.writeBuffer(&bytes)
        guard !connecting, let text = head.getString(at: head.readerIndex, length: head.readableBytes),
              let end = text.range(of: "\r\n\r\n") else { return }
        connecting = true
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ").map(String.init) ?? []
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        guard requestLine.count == 3, requestLine[0] == "CONNECT", let colon = requestLine[1].lastIndex(of: ":"),
              let port = Int(requestLine[1][requestLine[1].index(after: colon)...]) else {
            reply(context, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", close: true)
            return
        }
        let host = String(requestLine[1][..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        recorded.tunnels.withLock { $0.append(ConnectProxy.Tunnel(target: requestLine[1], proxyAuthorization: authorization)) }
        if let requiredAuthorization, authorization != requiredAuthorization {
            reply(context, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n", close: true)
            return
        }
        let target = host == "localhost" ? "127.0.0.1" : host
        guard target == "127.0.0.1" || target == "::1" else {
            reply(context, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", close: true)
            return
        }
        let client = context.channel
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { upstream in
                upstream.eventLoop.makeCompletedFuture {
                    try upstream.pipeline.syncOperations.addHandler(Splice(peer: client))
                }
            }
            .connect(host: target, port: port)
            .whenComplete { result in
                let (handler, context) = loopBound.value
                switch result {
                case .failure:
                    handler.reply(context, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", close: true)
                case .success(let upstream):
                    handler.reply(context, "HTTP/1.1 200 Connection established\r\n\r\n", close: false)
                    context.pipeline.syncOperations.removeHandler(handler, promise: nil)
                    try? context.pipeline.syncOperations.addHandler(Splice(peer: upstream))
                }
            }
    }

    private func reply(_ context: ChannelHandlerContext, _ text: String, close: Bool) {
        let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text)))
        let channel = context.channel
        if close { written.whenComplete { _ in channel.close(promise: nil) } }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Forwards every byte read on its channel to `peer`, and closes `peer` when its channel closes.
private final class Splice: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
