import Domain
import Foundation
import HTTPClient

/// `"type": "ntfy"`: each delivery is one notification, published as JSON (ntfy's "publish as JSON": a POST
/// of `{"topic", "title", "message", "tags", "priority", "click"}` to the server's root), so titles and
/// messages in any script need no header encoding.
///
/// A delivery of one item (ntfy's default `batch`, 1) shows that item: its title, its subtitle or URL as the
/// message, a tap opening its URL, its labels or categories and its source as tags. A larger batch is one
/// notification listing the titles ("3 new items"), so each delivery, kept or sent again, is one notification.
/// With a token, `Authorization: Bearer <token>` (ntfy's access tokens); it is refused over plain http to a
/// host that is not loopback.
public struct NtfyTransport: SinkTransport {
    /// ntfy's priority names, 1 (min) to 5 (max).
    public static let priorities = ["min": 1, "low": 2, "default": 3, "high": 4, "max": 5, "urgent": 5]

    private let server: URL
    private let topic: String
    private let token: String?
    private let priority: Int?
    private let tags: [String]
    private let client: any HTTPFetching

    /// - Parameters:
    ///   - topicURL: `https://ntfy.sh/mytopic`: the server (with any path prefix) and the topic, its last component.
    ///   - client: made with no retries of its own.
    public init(topicURL: URL, token: String?, priority: Int?, tags: [String], client: any HTTPFetching) {
        self.topic = topicURL.lastPathComponent
        self.server = topicURL.deletingLastPathComponent()
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.priority = priority
        self.tags = tags
        self.client = client
    }

    /// Nil when `url` names a topic (an http(s) URL with a host and a last path component); else why not.
    public static func topicProblem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false,
              !url.lastPathComponent.isEmpty, url.lastPathComponent != "/"
        else { return "expected the topic's URL, such as https://ntfy.sh/mytopic" }
        return nil
    }

    /// The JSON published for `delivery`.
    public func body(for delivery: SinkDelivery) -> Data {
        let items = DeliveredItems.objects(of: delivery)
        var message: JSONObject = ["topic": .string(topic)]
        if items.count == 1, let item = items.first {
            let title = item["title"]?.stringValue ?? ""
            message["title"] = .string(title)
            let text = [item["subtitle"]?.stringValue, item["url"]?.stringValue].compactMap { $0 }.first { !$0.isEmpty }
            message["message"] = .string(text ?? title)
            if let url = item["url"]?.stringValue, !url.isEmpty { message["click"] = .string(url) }
            let itemTags = DeliveredItems.tags(of: item) + [item["source"]?.stringValue].compactMap { $0 }
            message["tags"] = .array((tags + itemTags).map(JSONValue.string))
        } else {
            message["title"] = .string("\(items.count) new items")
            message["message"] = .string(items.map { item in
                "• \(item["title"]?.stringValue ?? "") (\(item["source"]?.stringValue ?? ""))"
            }.joined(separator: "\n"))
            let sources = items.compactMap { $0["source"]?.stringValue }
            message["tags"] = .array((tags + sources.uniqued()).map(JSONValue.string))
        }
        if let priority { message["priority"] = .int(priority) }
        var writer = JSONWriter()
        writer.value(.object(message))
        return Data(writer.bytes)
    }

    public func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        var headers: HTTPHeaders = ["Content-Type": "application/json"]
        if let token { headers.add("Authorization", "Bearer \(token)") }
        SinkPost(url: server, headers: headers, body: body(for: delivery), secrets: [token].compactMap { $0 })
            .send(with: client, cancellation: cancellation, completion: completion)
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
