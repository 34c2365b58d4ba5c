import Crypto
import Foundation

/// The response-cache key of a request, which never contains a secret.
///
/// `GET https://api.example/data?q=Seoul&appid=*** accept=application/json cred=9f2c…`: the method, the URL
/// with every secret query value (and declared secret) replaced by `***`, the request headers that change the
/// answer, and — when the request carries a credential — the SHA-256 of the credentials (secret query values,
/// declared secrets, `Authorization` and other secret header values). Two users' keys so never share an
/// entry, and the key shows which request it is without showing the key.
public enum ResponseCacheKey {
    /// Request headers that select a different representation, so they are part of the key.
    static let varyingHeaders = ["Accept", "Accept-Language"]

    /// The key of `request`: the same for requests that get the same answer, and never containing a secret.
    public static func make(for request: HTTPRequest) -> String {
        var key = "\(request.method.rawValue) \(Redactor.redact(request.url, secrets: request.secrets))"
        for name in varyingHeaders {
            if let value = request.headers[name] { key += " \(name.lowercased())=\(Redactor.scrub(value, secrets: request.secrets))" }
        }
        return key + credentialSuffix(of: request)
    }

    /// Whose rate limit a request counts against: its host and port, and the hash of its credentials (none: the
    /// anonymous budget of this machine's address, still shared by everyone asking without one).
    public static func budgetKey(for request: HTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let port = components?.port.map { ":\($0)" } ?? ""
        return "budget \(components?.scheme ?? "")://\(components?.host ?? "")\(port)" + credentialSuffix(of: request)
    }

    /// ` cred=<SHA-256 of the credentials>`, or nothing when the request carries none.
    private static func credentialSuffix(of request: HTTPRequest) -> String {
        let credentials = credentialMaterial(of: request)
        guard !credentials.isEmpty else { return "" }
        let digest = SHA256.hash(data: Data(credentials.sorted().joined(separator: "\u{0}").utf8))
        return " cred=" + digest.hexDigits
    }

    /// Every credential value the request carries, by where it is.
    static func credentialMaterial(of request: HTTPRequest) -> [String] {
        var material = request.secrets.map { "secret:\($0)" }
        for field in request.headers where Redactor.secretHeaderNames.contains(field.name.lowercased()) {
            material.append("header:\(field.name.lowercased()):\(field.value)")
        }
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? []
        for item in items where Redactor.isSecretQueryName(item.name) {
            material.append("query:\(item.name.lowercased()):\(item.value ?? "")")
        }
        if let password = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPassword {
            material.append("password:\(password)")
        }
        return material
    }
}
