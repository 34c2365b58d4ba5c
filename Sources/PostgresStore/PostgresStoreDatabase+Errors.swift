import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// The store's errors for people: which are a lost connection, and what went wrong without the password.
extension PostgresStoreDatabase {
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if error is PostgresSession.Timeout || error is PostgresSession.Closed { return true }
        guard let error = error as? PSQLError else { return false }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown].contains(error.code)
    }

    /// What went wrong, without the password: the server's own message, or the kind of connection failure.
    func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return url.scrub(message + state)
            }
            switch error.code {
            case .connectionError:
                return "connection failed" + (error.underlying.map { ": " + url.scrub(Self.systemReason($0)) } ?? "")
            case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
            case .sslUnsupported: return "the server does not support TLS (sslmode=require or stricter)"
            case .authMechanismRequiresPassword: return "the server asks for a password and the URL gives none"
            default: return "PostgreSQL client error \(error.code)"
            }
        }
        if error is NIOSSLError { return "TLS failed" }
        if error is PostgresSession.Timeout { return "no answer in \(PostgresSession.defaultTimeoutSeconds) s" }
        if error is PostgresSession.Closed { return "the server closed the connection" }
        return url.scrub(Self.systemReason(error))
    }

    /// A socket-level reason ("Connection refused"), without addresses beyond host and port.
    fileprivate static func systemReason(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.first.map { systemReason($0.error) } ?? "no address could be reached"
        }
        if error is ChannelError { return "the connection failed" }
        // A refused certificate (untrusted, or not for this host under verify-full): NIOSSL's own words name the
        // check that failed and never carry the URL or its password.
        if error is NIOSSLError || error is NIOSSLExtraError {
            return "TLS: the server's certificate was not accepted (\(error)); check sslrootcert, and the host name for verify-full"
        }
        return String(describing: type(of: error))
    }
}
