import Foundation

/// A throw-away certificate authority and server certificates, made with the `openssl` command when a test
/// first asks (once per test process, in a temporary directory; nothing is committed). `.ci/run` installs
/// `openssl` where it is missing.
///
/// - `caFile`: "Aggregate Test CA", the CA a test trusts through `caFile` or `SSL_CERT_FILE`.
/// - `localhost`: for `localhost` and `127.0.0.1`, issued by the CA.
/// - `otherHost`: for `other.example` only, issued by the CA (a hostname mismatch on 127.0.0.1).
/// - `expired`: for `localhost` and `127.0.0.1`, issued by the CA, valid only on 1–2 January 2020.
public struct TestCertificates: Sendable {
    /// A certificate and its private key, both PEM files.
    public struct Identity: Sendable {
        /// The certificate, PEM.
        public var certificate: URL
        /// Its private key, PEM.
        public var key: URL
    }

    /// The temporary directory the files are in.
    public var directory: URL
    /// The test CA's certificate, PEM: what a test trusts.
    public var caFile: URL
    /// For `localhost` and `127.0.0.1`, issued by the CA.
    public var localhost: Identity
    /// For `other.example` only, issued by the CA.
    public var otherHost: Identity
    /// For `localhost` and `127.0.0.1`, issued by the CA, long expired.
    public var expired: Identity

    /// The certificates of this test process, made on first use.
    public static func shared() async throws -> TestCertificates {
        try await cache.value
    }

    private static let cache = Task { try await make() }

    /// Why the certificates could not be made.
    public enum Failure: Error, CustomStringConvertible {
        /// `openssl` with these arguments failed, printing this.
        case openssl([String], String)
        /// The openssl command that failed and what it printed.
        public var description: String {
            switch self {
            case .openssl(let arguments, let stderr): "openssl \(arguments.joined(separator: " ")) failed: \(stderr)"
            }
        }
    }

    private static func make() async throws -> TestCertificates {
        let directory = try ScratchDirectory.make("aggregate-test-ca")
        func file(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func openssl(_ arguments: [String]) async throws {
            let result = try await ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, in: directory,
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
            if result.status != 0 { throw Failure.openssl(arguments, result.stderr) }
        }
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try await openssl(["req", "-x509"] + curve + ["-keyout", file("ca.key"), "-out", file("ca.pem"), "-days", "3",
                           "-subj", "/O=aggregate tests/CN=Aggregate Test CA"])
        func leaf(_ name: String, names: String, dates: [String]) async throws -> Identity {
            try await openssl(["req"] + curve + ["-keyout", file("\(name).key"), "-out", file("\(name).csr"),
                               "-subj", "/CN=\(name)"])
            try "subjectAltName=\(names)\nextendedKeyUsage=serverAuth\n"
                .write(toFile: file("\(name).ext"), atomically: true, encoding: .utf8)
            if dates.isEmpty {
                try await openssl(["x509", "-req", "-in", file("\(name).csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key"),
                                   "-CAcreateserial", "-days", "2", "-extfile", file("\(name).ext"), "-out", file("\(name).pem")])
            } else {
                // `openssl x509` (3.0) cannot date a certificate in the past; `openssl ca` can.
                try FileManager.default.createDirectory(atPath: file("db"), withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: file("db/index.txt"), contents: Data())
                try "01\n".write(toFile: file("db/serial"), atomically: true, encoding: .utf8)
                let config = """
                    [ca]
                    default_ca = test
                    [test]
                    database = \(file("db/index.txt"))
                    new_certs_dir = \(file("db"))
                    serial = \(file("db/serial"))
                    default_md = sha256
                    policy = any
                    unique_subject = no
                    [any]
                    commonName = supplied
                    """
                try config.write(toFile: file("ca.cnf"), atomically: true, encoding: .utf8)
                try await openssl(["ca", "-batch", "-config", file("ca.cnf"), "-cert", file("ca.pem"), "-keyfile", file("ca.key"),
                                   "-in", file("\(name).csr"), "-extfile", file("\(name).ext"), "-notext",
                                   "-out", file("\(name).pem")] + dates)
            }
            return Identity(certificate: URL(fileURLWithPath: file("\(name).pem")), key: URL(fileURLWithPath: file("\(name).key")))
        }
        let localhost = try await leaf("localhost", names: "DNS:localhost,IP:127.0.0.1", dates: [])
        let other = try await leaf("other.example", names: "DNS:other.example", dates: [])
        let expired = try await leaf("expired", names: "DNS:localhost,IP:127.0.0.1",
                                     dates: ["-startdate", "20200101000000Z", "-enddate", "20200102000000Z"])
        return TestCertificates(
            directory: directory, caFile: URL(fileURLWithPath: file("ca.pem")), localhost: localhost, otherHost: other,
            expired: expired)
    }
}
