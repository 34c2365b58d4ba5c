import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// An HTTPS server on 127.0.0.1 with an ephemeral port and a certificate of the test's choosing
/// (`TestCertificates`), answering every request with the same response. It counts the TCP connections it
/// accepted, so a test can prove a request was tried exactly once (a certificate failure is not retried).
///
/// It runs on SwiftNIO's own event loop threads, never on Swift's cooperative pool (docs/TESTING.md).
public final class TLSFixtureServer: Sendable {
    /// The loopback port the server listens on.
    public let port: Int
    private let channel: any Channel
    private let counters: Counters

    final class Counters: Sendable {
        let state = Mutex((connections: 0, requests: 0, paths: [String]()))
    }

    /// `https://localhost:PORT`, the name the test certificates carry.
    public var baseURL: URL { URL(string: "https://localhost:\(port)")! }
    /// TCP connections accepted so far.
    public var connections: Int { counters.state.withLock { $0.connections } }
    /// Requests answered so far (a failed handshake sends none).
    public var requests: Int { counters.state.withLock { $0.requests } }
    /// The paths of the requests answered so far, in order.
    public var paths: [String] { counters.state.withLock { $0.paths } }

    private init(port: Int, channel: any Channel, counters: Counters) {
        self.port = port
        self.channel = channel
        self.counters = counters
    }

    /// Starts serving `body` (as `contentType`) with `identity`'s certificate and key.
    public static func start(
        _ identity: TestCertificates.Identity, body: String, contentType: String = "application/json"
    ) async throws -> TLSFixtureServer {
        let certificates = try NIOSSLCertificate.fromPEMFile(identity.certificate.path)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: identity.key.path, format: .pem)))
        tls.minimumTLSVersion = .tlsv12
        let context = try NIOSSLContext(configuration: tls)
        let counters = Counters()
        let response = Data(body.utf8)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                counters.state.withLock { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        FixedResponder(body: response, contentType: contentType, counters: counters))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw ChannelError.unknownLocalAddress }
        return TLSFixtureServer(port: port, channel: channel, counters: counters)
    }

    /// Stops listening; open connections end with their clients.
    public func stop() async {
        try? await channel.close().get()
    }
}

/// Answers each request with the same 200 response.
private final class FixedResponder: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let body: Data
    private let contentType: String
    private let counters: TLSFixtureServer.Counters

    init(body: Data, contentType: String, counters: TLSFixtureServer.Counters) {
        self.body = body
        self.contentType = contentType
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            counters.state.withLock {
                $0.requests += 1
                $0.paths.append(head.uri)
            }
        case .body:
            break
        case .end:
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: contentType)
            headers.add(name: "Content-Length", value: String(body.count))
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A client that refused the certificate closes the connection; that is what the tests are about.
        context.close(promise: nil)
    }
}
