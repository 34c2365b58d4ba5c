import FlyingFox
import FlyingSocks
import Foundation

/// A response body delivered in timed segments, optionally failing at the end: FlyingFox then closes the
/// connection, so the client sees a body shorter than its `Content-Length`.
struct FaultBodySequence: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    struct Segment: Sendable {
        var delay: TimeInterval
        var bytes: [UInt8]
    }

    struct Broken: Error {}

    let segments: [Segment]
    let failsAtEnd: Bool

    func makeAsyncIterator() -> Iterator {
        Iterator(segments: segments[...], failsAtEnd: failsAtEnd)
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var segments: ArraySlice<Segment>
        var failsAtEnd: Bool
        var pending: ArraySlice<UInt8> = []

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> ArraySlice<UInt8>? {
            while pending.isEmpty {
                guard let segment = segments.popFirst() else {
                    if failsAtEnd { throw Broken() }
                    return nil
                }
                if segment.delay > 0 { try await Task.sleep(nanoseconds: UInt64(segment.delay * 1e9)) }
                pending = segment.bytes[...]
            }
            let chunk = pending.prefix(Swift.max(1, count))
            pending = pending.dropFirst(chunk.count)
            return chunk
        }
    }
}

/// Closes the connection before a single byte of response is written: FlyingFox asks a WebSocket handler
/// for its frames before it sends the upgrade response, and a handler that throws ends the connection.
struct ClosingHandler: WSHandler {
    struct Closed: Error {}

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        throw Closed()
    }
}
