import Crypto
import Domain
import Foundation

/// The reader apps' account (`"reader"` in the manifest) with its password read. The password never leaves this
/// type: the server asks it to check what a client sent, and gets tokens derived from it, never the password.
public struct ReaderAccount: Sendable, CustomStringConvertible {
    public let username: String
    private let password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// Redacted: a log line naming the account shows no secret.
    public var description: String { "reader account \(username)" }

    /// Whether a login (`/accounts/ClientLogin`) names this account.
    public func accepts(username given: String, password givenPassword: String) -> Bool {
        // Both compared, whatever the first gives, so the time taken tells nothing.
        let name = Self.constantTimeEqual(given, username)
        let secret = Self.constantTimeEqual(givenPassword, password)
        return name && secret
    }

    /// The Google Reader API's `Auth` token: a keyed digest of the username under the password, so it survives a
    /// restart, changes with the password, and shows nothing of it.
    public var authToken: String { digest("aggregate-reader-auth-v1") }

    /// What `/reader/api/0/token` hands out (clients send it back as `T`; nothing depends on it).
    public var actionToken: String { String(digest("aggregate-reader-action-v1").prefix(57)) }

    public func accepts(authToken given: String) -> Bool { Self.constantTimeEqual(given, authToken) }

    /// The Fever API's `api_key`: md5 of `username:password`, lowercase hex, as the Fever API defines it.
    public var feverAPIKey: String {
        Insecure.MD5.hash(data: Data("\(username):\(password)".utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func accepts(feverAPIKey given: String) -> Bool { Self.constantTimeEqual(given.lowercased(), feverAPIKey) }

    private func digest(_ purpose: String) -> String {
        let key = SymmetricKey(data: Data(password.utf8))
        let code = HMAC<SHA256>.authenticationCode(for: Data("\(purpose)\u{0}\(username)".utf8), using: key)
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// Compares digests of both, so neither the length nor the first differing byte shows in the time taken.
    private static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let a = Array(SHA256.hash(data: Data(given.utf8)))
        let b = Array(SHA256.hash(data: Data(expected.utf8)))
        var difference: UInt8 = 0
        for index in 0..<a.count { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

/// A source as reader apps see it: a feed, in the folders its `tags` option names (an OPML import's folders).
public struct ReaderFeed: Sendable, Hashable {
    public var id: String
    public var tags: [String]
    /// The first address the source reads, when it has one (`urls` of a feed or page source) and it can hold no
    /// credential.
    public var url: URL?

    public init(id: String, tags: [String], url: URL?) {
        self.id = id
        self.tags = tags
        self.url = url
    }
}

extension AppDIContainer {
    /// The manifest's `reader` account with its password read (`${VAR}`s substituted, a secret reference read on a
    /// thread of its own); nil without one. `completion` runs once, on no particular thread.
    public func readerAccount(completion: @escaping @Sendable (Result<ReaderAccount?, SourceError>) -> Void) {
        guard let reader = manifest.reader else { return completion(.success(nil)) }
        let settings = EnvironmentSubstitution.apply(to: .object(["password": reader.password]), environment: environment)
        if !settings.missing.isEmpty {
            let names = settings.missing.map { "$\($0)" }.joined(separator: ", ")
            return completion(.failure(SourceError(.configuration, "reader.password needs environment variable \(names), which is not set")))
        }
        let references = SecretReferences(settings.value, secretKeys: ["password"], secretMemberKeys: [], path: "reader")
        let username = reader.username
        let account: @Sendable (JSONValue) -> Result<ReaderAccount?, SourceError> = { value in
            guard let password = value["password"]?.stringValue, !password.isEmpty else {
                return .failure(SourceError(.configuration, "reader.password is empty"))
            }
            return .success(ReaderAccount(username: username, password: password))
        }
        guard !references.isEmpty else { return completion(account(settings.value)) }
        references.resolve(
            in: settings.value, baseDirectory: manifest.baseDirectory, timeoutSeconds: 30, cancellation: nil,
            environment: environment, cache: secretCache
        ) { result in
            completion(result.flatMap(account))
        }
    }

    /// The enabled sources as reader apps' feeds, in manifest order.
    public var readerFeeds: [ReaderFeed] {
        manifest.sources.filter(\.enabled).map { source in
            let options = source.options
            let tags = options["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let url = (options["urls"]?.arrayValue?.first?.stringValue ?? options["url"]?.stringValue).flatMap(URL.init(string:))
            // Only a plain address: one with a variable, a query or a user may carry a credential.
            let plain = url.flatMap { $0.scheme?.hasPrefix("http") == true && $0.query == nil && $0.user == nil
                && !$0.absoluteString.contains("$") ? $0 : nil }
            return ReaderFeed(id: source.id, tags: tags, url: plain)
        }
    }

    /// The store's item archive (opening the store on first use: call off the event loop); nil where the store
    /// keeps none or cannot be opened.
    public func archive() -> (any ItemArchiveRepository)? {
        store.open().store?.archive
    }
}
