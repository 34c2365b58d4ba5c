import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a host's name resolves and its port takes TCP connections, without sending a byte of HTTP
/// (`aggregate doctor`). Blocking: for the command line's own thread, never a pool thread.
public enum HostReachability {
    /// Why a host could not be resolved or reached (the system's words).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The host's addresses (numeric), or why it does not resolve.
    public static func resolve(_ host: String) -> Result<[String], Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, nil, &hints, &list)
        guard code == 0, let list else { return .failure(Failure(description: String(cString: gai_strerror(code)))) }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let text = numeric(current.pointee.ai_addr, current.pointee.ai_addrlen), !addresses.contains(text) {
                addresses.append(text)
            }
            entry = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(Failure(description: "no address")) : .success(addresses)
    }

    /// Connects to `host:port` (each address in turn, at most `timeoutSeconds` each) and closes at once;
    /// the address that answered, or why none did.
    public static func connect(host: String, port: Int, timeoutSeconds: Double) -> Result<String, Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let list else { return .failure(Failure(description: String(cString: gai_strerror(code)))) }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            let info = current.pointee
            let descriptor = socket(info.ai_family, info.ai_socktype, info.ai_protocol)
            guard descriptor >= 0 else { lastError = String(cString: strerror(errno)); continue }
            defer { close(descriptor) }
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
            if systemConnect(descriptor, info.ai_addr, info.ai_addrlen) == 0 {
                return .success(numeric(info.ai_addr, info.ai_addrlen) ?? host)
            }
            guard errno == EINPROGRESS else { lastError = String(cString: strerror(errno)); continue }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&poller, 1, Int32(timeoutSeconds * 1000))
            guard ready > 0 else { lastError = "no answer within \(Int(timeoutSeconds)) s"; continue }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure == 0 { return .success(numeric(info.ai_addr, info.ai_addrlen) ?? host) }
            lastError = String(cString: strerror(failure))
        }
        return .failure(Failure(description: lastError))
    }

    private static func numeric(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> String? {
        guard let address else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    #if canImport(Glibc)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamSocket = SOCK_STREAM
    #endif
}

/// `connect(2)`, named apart from `HostReachability.connect`.
private func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
