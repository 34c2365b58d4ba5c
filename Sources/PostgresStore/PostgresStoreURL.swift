import Domain
import Foundation

/// Where the shared store is: a `postgres://user:password@host:port/database?sslmode=…` URL, as libpq writes
/// them. The password is kept for connecting and never shown: `description` and every message use `redacted`.
public struct PostgresStoreURL: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode` values this store understands.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// Plain connections only.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS always, without checking the certificate.
        case require
        /// TLS always; the certificate must chain to a trusted CA (`sslrootcert`, else the system's).
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var user: String
    var password: String?
    public var database: String
    public var sslMode: SSLMode
    /// `sslrootcert`: a PEM file of the CAs to trust for `verify-ca` / `verify-full`.
    public var rootCertificatePath: String?

    /// The URL without its password, for messages.
    public var redacted: String {
        Self.redact(user: user, hasPassword: password != nil, host: host, port: port, database: database)
    }

    private static func redact(user: String, hasPassword: Bool, host: String, port: Int, database: String) -> String {
        "postgres://\(user)\(hasPassword ? ":***" : "")@\(host):\(port)/\(database)"
    }

    public var description: String { redacted }

    /// Whether `text` names a PostgreSQL store (rather than a SQLite file).
    public static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses `text`; `PGPASSWORD` fills in a password the URL leaves out. The error never holds the text.
    public init(_ text: String, environment: [String: String] = [:]) throws(SourceError) {
        guard Self.isPostgres(text), let components = URLComponents(string: text), let host = components.host,
              !host.isEmpty else {
            throw SourceError(.configuration, "the store URL is not a postgres://user@host:port/database URL")
        }
        self.host = host
        self.port = components.port ?? 5432
        self.user = components.user.flatMap { $0.removingPercentEncoding } ?? environment["PGUSER"] ?? "postgres"
        self.password = components.password.flatMap { $0.removingPercentEncoding } ?? environment["PGPASSWORD"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.isEmpty ? user : (path.removingPercentEncoding ?? path)
        var mode = SSLMode.prefer
        var rootCertificatePath: String?
        let redacted = Self.redact(user: user, hasPassword: password != nil, host: host, port: port, database: database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value.flatMap(SSLMode.init(rawValue:)) else {
                    let known = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw SourceError(.configuration, "sslmode must be one of \(known) in the store URL \(redacted)")
                }
                mode = value
            case "sslrootcert":
                rootCertificatePath = item.value
            default:
                break
            }
        }
        self.sslMode = mode
        self.rootCertificatePath = rootCertificatePath
    }

    /// Removes the password from `message` (a server or driver text that might echo it).
    func scrub(_ message: String) -> String {
        guard let password, !password.isEmpty else { return message }
        return message.replacingOccurrences(of: password, with: "***")
    }
}
