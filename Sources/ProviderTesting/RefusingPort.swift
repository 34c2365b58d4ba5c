#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Synchronization

/// A loopback TCP port that refuses every connection: a socket bound to it that never listens, kept open so no
/// other socket of the machine can take the port until `release()` (a receiver that is down, then comes up on
/// the same port).
public final class RefusingPort: Sendable {
    static let shared = RefusingPort()

    /// Nil when no socket could be bound (the tests that need it then fail saying so).
    public let port: UInt16?
    private let descriptor: Int32
    private let open = Mutex(true)

    /// Binds a free loopback port without listening; ``port`` is nil when no socket could be bound.
    public init() {
        #if canImport(Glibc)
        // Close-on-exec: a copy inherited by a program started meanwhile would keep the port after `release()`.
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.descriptor = descriptor
        guard descriptor >= 0 else {
            port = nil
            return
        }
        // A port below the kernel's ephemeral range (Linux: 32768 and up), so that once released, no connection
        // that any process opens meanwhile can be given it as its local port before the test's server binds it.
        // Another test's explicit bind is the only contender, hence a random one; port 0 (ephemeral) is the last
        // resort.
        var port: UInt16?
        for candidate in (0..<64).map({ _ in UInt16.random(in: Self.fixedPorts) }) + [0] where port == nil {
            port = Self.bound(descriptor, to: candidate)
        }
        self.port = port
    }

    /// Where ports are chosen: below every common ephemeral range, above the well-known and most registered ones.
    static let fixedPorts: ClosedRange<UInt16> = 20_000...32_000

    /// Binds `descriptor` to 127.0.0.1:`port` (0: any free port) and gives the port it got, or nil.
    private static func bound(_ descriptor: Int32, to port: UInt16) -> UInt16? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Frees the port (for a server to bind); the shared one is never released.
    ///
    /// Between the release and the server's bind, another thread's child process that has not reached its `exec`
    /// yet may still hold a copy of the socket, and the bind then fails: a receiver that comes up here should be
    /// `FixtureServer.start(on:)`, which listens on this very socket.
    public func release() {
        guard let descriptor = handOver() else { return }
        close(descriptor)
    }

    /// The bound socket, given up by this port (a later `release()` does nothing); nil once released or handed over,
    /// and for the shared one.
    func handOver() -> Int32? {
        guard self !== Self.shared, open.withLock({ let was = $0; $0 = false; return was }), descriptor >= 0 else {
            return nil
        }
        return descriptor
    }
}
