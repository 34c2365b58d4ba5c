import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to 127.0.0.1 driven byte by byte, for what an HTTP client library never does: trickle a
/// request's head, stop sending, never read. Its blocking reads run on a thread of their own, never on the
/// cooperative pool.
final class RawConnection: Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// Sends `text` whole; false once the server closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Everything the server sends until it closes the connection, or nil if it is still open after
    /// `seconds` (a generous bound: what is tested is that it closes at all).
    func readUntilClosed(within seconds: Int) async -> [UInt8]? {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                var timeout = timeval(tv_sec: 1, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 65536)
                let deadline = Date().addingTimeInterval(TimeInterval(seconds))
                while Date() < deadline {
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count == 0 { return continuation.resume(returning: received) }
                    if count < 0 {
                        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                        return continuation.resume(returning: received)  // reset: closed too
                    }
                    received.append(contentsOf: buffer[0..<count])
                }
                continuation.resume(returning: nil)
            }
            thread.start()
        }
    }
}
