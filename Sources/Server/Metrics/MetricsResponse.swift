import Hummingbird
import NIOCore

extension Response {
    /// A Prometheus text exposition (`/metrics` of `serve` and of a worker's `--metrics`).
    static func metrics(_ exposition: [UInt8]) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: exposition)))
    }
}
