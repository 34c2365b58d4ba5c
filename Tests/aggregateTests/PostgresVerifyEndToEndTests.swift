import Foundation
import ProviderTesting
import Testing

/// `sslmode=verify-ca` and `verify-full` against throwaway clusters whose certificates a test CA issued
/// (`TestCertificates`): the CA named by `sslrootcert` is trusted, the system's CAs alone are not, and only
/// `verify-full` checks the name.
@Suite("aggregate store: PostgreSQL over verified TLS (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresVerifyEndToEndTests {
    /// A cluster serving `identity` over TLS; its key and certificate copied where the server (user postgres) may read them.
    private static func cluster(serving identity: TestCertificates.Identity) async throws -> (TestPostgresCluster, URL) {
        let directory = ScratchDirectory.path("aggregate-pg-verify")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let key = directory.appendingPathComponent("server.key"), certificate = directory.appendingPathComponent("server.crt")
        try FileManager.default.copyItem(at: identity.key, to: key)
        try FileManager.default.copyItem(at: identity.certificate, to: certificate)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
        if getuid() == 0 {  // the server runs as postgres and must own its key
            for path in [key.path, certificate.path, directory.path] {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: path)
            }
        }
        let cluster = try await TestPostgresCluster.start(
            options: "-c ssl=on -c ssl_cert_file=\(certificate.path) -c ssl_key_file=\(key.path)")
        return (cluster, directory)
    }

    private static func store(_ cluster: TestPostgresCluster, _ query: String) -> String {
        cluster.url.replacingOccurrences(of: "sslmode=disable", with: query)
    }

    @Test("a certificate for 127.0.0.1 from the trusted CA: verify-full and verify-ca connect; without sslrootcert they refuse")
    func trustedCertificate() async throws {
        let certificates = try await TestCertificates.shared()
        let (cluster, directory) = try await Self.cluster(serving: certificates.localhost)
        let ca = certificates.caFile.path
        let full = try await Aggregate.run(["store", "migrate"], environment: ["AGGREGATE_STORE": Self.store(cluster, "sslmode=verify-full&sslrootcert=\(ca)")])
        let caOnly = try await Aggregate.run(["store", "info"], environment: ["AGGREGATE_STORE": Self.store(cluster, "sslmode=verify-ca&sslrootcert=\(ca)")])
        let untrusted = try await Aggregate.run(["store", "info"], environment: ["AGGREGATE_STORE": Self.store(cluster, "sslmode=verify-full")])
        await cluster.stop()
        try? FileManager.default.removeItem(at: directory)

        #expect(full.status == 0, "stderr: \(full.stderr)")
        #expect(full.stdout.contains("sslmode: verify-full"), "stdout: \(full.stdout)")
        #expect(caOnly.status == 0, "stderr: \(caOnly.stderr)")
        #expect(caOnly.stdout.contains("sslmode: verify-ca"))
        #expect(untrusted.status == 1, "the test CA is not among the system's: \(untrusted.stdout)")
        #expect(untrusted.stderr.contains("TLS"), "\(untrusted.stderr)")
    }

    @Test("a certificate for another name from the trusted CA: verify-ca connects, verify-full refuses")
    func otherName() async throws {
        let certificates = try await TestCertificates.shared()
        let (cluster, directory) = try await Self.cluster(serving: certificates.otherHost)
        let ca = certificates.caFile.path
        let caOnly = try await Aggregate.run(["store", "migrate"], environment: ["AGGREGATE_STORE": Self.store(cluster, "sslmode=verify-ca&sslrootcert=\(ca)")])
        let full = try await Aggregate.run(["store", "info"], environment: ["AGGREGATE_STORE": Self.store(cluster, "sslmode=verify-full&sslrootcert=\(ca)")])
        await cluster.stop()
        try? FileManager.default.removeItem(at: directory)

        #expect(caOnly.status == 0, "stderr: \(caOnly.stderr)")
        #expect(full.status == 1, "the certificate names other.example, not 127.0.0.1: \(full.stdout)")
        #expect(full.stderr.contains("TLS"), "\(full.stderr)")
    }
}
