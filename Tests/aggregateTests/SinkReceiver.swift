import Crypto
import Foundation
import ProviderTesting

/// A webhook receiver on loopback for the sinks' tests: the fixture server's `/hook`, and what it took,
/// each delivery's signature checked against the secret.
struct SinkReceiver {
    struct Delivery {
        var id: String
        var sink: String
        var itemIDs: [String]
        var body: Data
        var signatureValid: Bool
    }

    let server: FixtureServer
    let secret: String

    var url: String { server.baseURL.absoluteString + "/hook" }

    /// Every POST to `/hook`, in the order received.
    var deliveries: [Delivery] { deliveries(of: server.requests) }

    /// Suspends until `condition` holds of the item ids taken so far (asked as each request arrives); false if it did
    /// not within `seconds`.
    func waitFor(within seconds: Double = 120, _ condition: @escaping @Sendable ([String]) -> Bool) async -> Bool {
        await server.waitForRequests(within: seconds) { [self] requests in condition(itemIDs(of: requests)) }
    }

    /// The item ids taken by `requests` (all of the server's), as `itemIDs`.
    func itemIDs(of requests: [RecordedRequest]) -> [String] {
        distinctDeliveries(of: requests).flatMap(\.itemIDs)
    }

    private func deliveries(of requests: [RecordedRequest]) -> [Delivery] {
        requests.filter { $0.path == "/hook" }.map { request in
            let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
            let items = object["items"] as? [[String: Any]] ?? []
            let mac = HMAC<SHA256>.authenticationCode(for: request.body, using: SymmetricKey(data: Data(secret.utf8)))
            let expected = "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
            return Delivery(
                id: object["deliveryId"] as? String ?? "", sink: object["sink"] as? String ?? "",
                itemIDs: items.compactMap { item in (item["source"] as? String).flatMap { source in
                    (item["id"] as? String).map { "\(source)/\($0)" } } },
                body: request.body,
                signatureValid: request.header("X-Aggregate-Signature") == expected
                    && request.header("X-Aggregate-Delivery") == object["deliveryId"] as? String)
        }
    }

    /// The deliveries as a receiver that deduplicates on `deliveryId` takes them: the first of each id. (A
    /// receiver slower than the sink's timeout gets the same delivery again: at least once, same id.)
    var distinctDeliveries: [Delivery] { distinctDeliveries(of: server.requests) }

    private func distinctDeliveries(of requests: [RecordedRequest]) -> [Delivery] {
        var seen = Set<String>()
        return deliveries(of: requests).filter { seen.insert($0.id).inserted }
    }

    /// Every item id taken, in order, across distinct deliveries.
    var itemIDs: [String] { itemIDs(of: server.requests) }
}

/// A manifest with one files source (`news`) and the given sinks, and its data file.
enum SinkSandbox {
    static let secret = "hook-s3cret-value"

    static func news(_ ids: [String]) -> String {
        ids.map { #"{"id": "\#($0)", "title": "Story \#($0)"}"# + "\n" }.joined()
    }

    static func make(sinks: String, news ids: [String]) throws -> Sandbox {
        try Sandbox(
            manifest: """
                {"version": 1, "sources": [{"id": "news", "provider": "files", "options": {"paths": ["data/news.ndjson"]}}],
                 "sinks": [\(sinks)]}
                """,
            files: ["data/news.ndjson": news(ids)])
    }

    static func webhook(_ url: String, extra: String = "") -> String {
        // A roomy timeout: on a loaded machine a slow answer would otherwise be sent again (same id).
        #"{"id": "hook", "type": "webhook", "url": "\#(url)", "secret": "${HOOK_SECRET}", "sources": ["news"], "timeoutSeconds": 60\#(extra)}"#
    }

    static func write(_ ids: [String], in sandbox: Sandbox) throws {
        try Data(news(ids).utf8).write(to: sandbox.root.appendingPathComponent("data/news.ndjson"))
    }
}
