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

    init(root: URL, identity: TestCertificates.Identity) throws {
        port = try Self.freePort()
        process = try LiveProcess.start(
            URL(fileURLWithPath: "/usr/bin/nghttpd"),
            ["-v", "-a", "127.0.0.1", "-d", root.path, "\(port)", identity.key.path, identity.certificate.path],
            environment: [:])
    }

    /// Stops the server; the connections it saw (distinct session ids in its log) and the log.
    func stop() async -> (connections: Set<String>, log: String) {
        process.signal(SIGTERM)
        let log = await process.finish().stdout
        var ids = Set<String>()
        for line in log.split(separator: "\n") {
            guard let start = line.range(of: "[id="), let end = line[start.upperBound...].firstIndex(of: "]") else { continue }
            ids.insert(String(line[start.upperBound..<end]))
        }
        return (ids, log)
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
        #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/nghttpd"), "nghttpd (nghttp2-server) is missing")
        let certificates = try await TestCertificates.shared()
        let root = try ScratchDirectory.make("h2-root")
        let body = Data(try recordedWeather().utf8)
        try body.write(to: root.appendingPathComponent("weather.json"))
        let server = try H2Server(root: root, identity: certificates.localhost)
        // Stopped below; this covers a failed `#require` on the way (a second SIGTERM to an ended process is harmless).
        defer { server.process.signal(SIGTERM) }
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
        let (connections, log) = await server.stop()
        #expect(connections.count == 1, "\(connections.count) connections: \(log.prefix(2000))")
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
