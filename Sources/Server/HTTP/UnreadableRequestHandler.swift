import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// A request the HTTP parser cannot read (a head over the decoder's limits, bytes no request line may hold) is
/// answered like every other refusal of this server: a 400 with the JSON error body, then the connection closed.
/// Left to Hummingbird, it got a 400 with no body and no `Content-Type`. Sits after Hummingbird's HTTP codec and
/// takes the parser's error out of the pipeline once it answered it.
final class UnreadableRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let problem = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        let message = problem == .headerOverflow
            ? "the request's head is larger than this server reads (a header field over 8 KiB, or all of them over 16 KiB)"
            : "the request is not HTTP/1.1 this server can read (\(problem))"
        let body = ServeJSON.error(message)
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        fields[.contentLength] = String(body.count)
        fields[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
