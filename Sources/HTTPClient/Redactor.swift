import Foundation

/// Keeps secrets out of anything shown: URLs in log lines and messages, and free text.
public enum Redactor {
    /// Query item names whose values are credentials (compared case-insensitively).
    public static let secretQueryNames: Set<String> = [
        "appid", "api_key", "apikey", "access_token", "token", "key", "client_secret", "password", "secret",
        "signature", "sig",
    ]

    /// Header names that are never logged.
    public static let secretHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "x-api-key"]

    static func isSecretQueryName(_ name: String) -> Bool {
        secretQueryNames.contains(name.lowercased())
    }

    static func hasSecretQueryItem(_ url: URL) -> Bool {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? []
        return items.contains { isSecretQueryName($0.name) && !($0.value ?? "").isEmpty }
    }

    /// The URL with secret query values and any password replaced by `***`, then `secrets` scrubbed.
    public static func redact(_ url: URL, secrets: [String] = []) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return scrub(url.absoluteString, secrets: secrets)
        }
        if components.percentEncodedPassword != nil { components.percentEncodedPassword = "***" }
        if let items = components.percentEncodedQueryItems {
            components.percentEncodedQueryItems = items.map { item in
                guard isSecretQueryName(item.name), item.value != nil else { return item }
                return URLQueryItem(name: item.name, value: "***")
            }
        }
        return scrub(components.string ?? url.absoluteString, secrets: secrets)
    }

    /// `text` with every occurrence of each secret (raw and percent-encoded) replaced by `***`.
    public static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where !secret.isEmpty {
            result = result.replacingOccurrences(of: secret, with: "***")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: "***")
            }
        }
        return result
    }

    /// Whether a host is this machine (the only place plain `http://` may carry a credential).
    public static func isLoopback(host: String?) -> Bool {
        guard var host = host?.lowercased(), !host.isEmpty else { return false }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Nil when `url` may carry a credential; else why not (plain http to a host that is not loopback).
    public static func credentialTransportProblem(_ url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", !isLoopback(host: url.host) else { return nil }
        return "refusing to send a credential over plain http:// to \(url.host ?? "an unknown host"); use https:// "
            + "(plain http is allowed only for loopback hosts)"
    }
}
