import Foundation
import HTTPClient
@testable import Server

/// A server with two sources for the reader API tests: `news`, a feed of four entries tagged News (the RSS 2.0
/// spec's sample), and `notes`, two NDJSON records (no feed: every provider's items are the reader's).
enum ReaderFixture {
    static let username = "ann"
    static let password = "correct-horse-7"
    /// md5("ann:correct-horse-7"), from Python's hashlib.
    static let feverKey = "b84c84ca84d2dc0822f8892ecf6ad885"
    static let itemCount = 6
    static let newsCount = 4

    static func manifest(reader: Bool = true) -> String {
        """
        {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
          {"id": "news", "provider": "feed", "options": {"paths": ["data/news.xml"], "tags": ["News"]}},
          {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
        ]\(reader ? #", "reader": {"username": "\#(username)", "password": "\#(password)"}"# : "")}
        """
    }

    static func files() throws -> [String: String] {
        let url = try Bundle.module.url(forResource: "rss2_spec_sample_liftoff_news", withExtension: "xml", subdirectory: "Fixtures")
            .orThrow("the RSS fixture")
        return [
            "data/news.xml": try String(contentsOf: url, encoding: .utf8),
            "data/notes.ndjson": ndjson([("n1", "Buy milk", "2026-11-01T10:00:00Z"), ("n2", "Call Bob", "2026-11-02T10:00:00Z")]),
        ]
    }

    /// Serves the fixture and waits until the archive holds every item (its first cycle stored them).
    static func start(token: String? = nil, reader: Bool = true) async throws -> ServeHarness {
        let harness = try await ServeHarness.start(manifest: manifest(reader: reader), files: try files(), token: token)
        try await harness.ready()
        return harness
    }
}

/// One reader app's session: its `Auth` token, sent as `Authorization: GoogleLogin auth=…`.
struct ReaderSession {
    let harness: ServeHarness
    let auth: String

    var authorization: (String, String) { ("Authorization", "GoogleLogin auth=\(auth)") }

    func get(_ path: String) async throws -> HTTPResponse {
        try await harness.request(path, headers: [authorization])
    }

    func post(_ path: String, form: String) async throws -> HTTPResponse {
        try await harness.request(
            path, method: .post, headers: [authorization, ("Content-Type", "application/x-www-form-urlencoded")], body: form)
    }

    /// The `itemRefs` ids of a `stream/items/ids` query.
    func ids(_ query: String) async throws -> [String] {
        let reply = try await get("/reader/api/0/stream/items/ids?" + query)
        guard reply.status == 200 else { throw ServeHarness.Failure("\(query): \(reply.status) \(reply.text)") }
        return (try reply.json()["itemRefs"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}

extension ServeHarness {
    /// A form POST without credentials (logins, Fever).
    func form(_ path: String, _ form: String) async throws -> HTTPResponse {
        try await request(path, method: .post, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
    }
}

extension Optional {
    func orThrow(_ what: String) throws -> Wrapped {
        guard let self else { throw ServeHarness.Failure("\(what) is missing") }
        return self
    }
}

extension ReaderSession {
    /// Logs in as the Google Reader clients do (the `Auth=` line of the text answer) and waits until the archive
    /// holds every fixture item (each change of a source's state wakes the wait; no sleeping).
    static func login(_ harness: ServeHarness) async throws -> ReaderSession {
        let reply = try await harness.form("/accounts/ClientLogin", "Email=\(ReaderFixture.username)&Passwd=\(ReaderFixture.password)")
        guard reply.status == 200,
              let line = reply.text.split(separator: "\n").first(where: { $0.hasPrefix("Auth=") }) else {
            throw ServeHarness.Failure("ClientLogin: \(reply.status) \(reply.text)")
        }
        let session = ReaderSession(harness: harness, auth: String(line.dropFirst(5)))
        try await harness.poll(
            "/reader/api/0/stream/items/ids?s=user/-/state/com.google/reading-list&n=100", headers: [session.authorization]
        ) { reply in
            let refs = (try? reply.json())?["itemRefs"] as? [[String: Any]]
            return refs?.count == ReaderFixture.itemCount
        }
        return session
    }
}
