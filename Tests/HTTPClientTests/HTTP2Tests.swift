import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderTesting
import Testing

/// nghttpd (Debian's nghttp2-server, installed by .ci/run) serving a directory over TLS on a free loopback port,
/// with `-v`, which names every connection's session (`[id=N]`) in its output.
private struct H2Server {
    let port: Int
    let process: LiveProcess

    /// Where Debian installs it (/usr/sbin), or elsewhere on the PATH.
    static let executable: URL? = (["/usr/sbin", "/usr/bin"] + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":").map(String.init))
        .map { URL(fileURLWithPath: $0).appendingPathComponent("nghttpd") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    init(root: URL, identity: TestCertificates.Identity) throws {
        port = try Self.freePort()
        process = try LiveProcess.start(
            try #require(Self.executable, "nghttpd (Debian: nghttp2-server) is not installed"),
            ["-v", "-a", "127.0.0.1", "-d", root.path, "\(port)", identity.key.path, identity.certificate.path],
            environment: [:])
    }

    /// Stops the server; how many requests it received on each connection (by session id) and its log. The
    /// readiness probe's connection sent none and is not counted.
    func stop() async -> (requestsByConnection: [String: Int], log: String) {
        // SIGKILL: the child inherits the test process's blocked signals (Foundation's Process), SIGTERM among them.
        process.signal(SIGKILL)
        let log = await process.finish().stdout
        var requests: [String: Int] = [:]
        for line in log.split(separator: "\n") where line.contains(":path:") {
            guard let start = line.range(of: "[id="), let end = line[start.upperBound...].firstIndex(of: "]") else { continue }
            requests[String(line[start.upperBound..<end]), default: 0] += 1
        }
        return (requests, log)
    }

    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

@Suite("HTTP/2: one connection for many requests")
struct HTTP2Tests {
    @Test("eight requests of one source to an HTTP/2 server share one connection")
    func multiplexed() async throws {
        let certificates = try await TestCertificates.shared()
        let root = try ScratchDirectory.make("h2-root")
        let body = Data(try recordedWeather().utf8)
        try body.write(to: root.appendingPathComponent("weather.json"))
        let server = try H2Server(root: root, identity: certificates.localhost)
        // Stopped below; this covers a failed `#require` on the way (a second signal to an ended process is harmless).
        defer { server.process.signal(SIGKILL) }
        #expect(try await eventually { HostReachability.connect(host: "127.0.0.1", port: server.port, timeoutSeconds: 1).isSuccess })

        let client = CurlHTTPClient(configuration: HTTPClientConfiguration(
            maxConnectionsPerHost: 8, requestTimeout: 20, retry: RetryPolicy(maxRetries: 0), sourceID: "h2",
            caFile: certificates.caFile))
        let url = try #require(URL(string: "https://localhost:\(server.port)/weather.json"))
        let results = await withTaskGroup(of: Result<HTTPResponse, SourceError>.self) { group in
            for _ in 0..<8 { group.addTask { await client.fetch(HTTPRequest(url: url)) } }
            var results: [Result<HTTPResponse, SourceError>] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results.allSatisfy { $0.value?.status == 200 && $0.value?.body == body }, "\(results.compactMap(\.error))")
        let (requestsByConnection, log) = await server.stop()
        #expect(requestsByConnection.values.reduce(0, +) == 8)
        #expect(requestsByConnection.count == 1, "requests by connection: \(requestsByConnection); \(log.suffix(3000))")
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
