import Domain
import Foundation
import HTTPClient
import Templating

/// `"type": "slack"`: each delivery is one message to an incoming webhook, `{"text": …}`, the format Slack's
/// incoming webhooks take and Mattermost's and Discord's Slack-compatible endpoints (`…/slack`) accept too.
///
/// The text is a Mustache template (`Template`: the `--template` helpers) over `sink`, `count` and `items`
/// (each as in the output contract). Values come escaped as Slack asks (`&`, `<`, `>` as `&amp;`, `&lt;`,
/// `&gt;`), so an item's title cannot mention `<!channel>` or forge a link: write them with `{{{…}}}` (`{{…}}`
/// would escape them once more, for HTML). The webhook URL is the credential: it never appears in messages.
public struct SlackTransport: SinkTransport {
    /// One line per item: a link to it titled with its title, and its source.
    public static let defaultTemplate =
        "{{#items}}• {{#url}}<{{{url}}}|{{{title}}}>{{/url}}{{^url}}{{{title}}}{{/url}} ({{{source}}})\n{{/items}}"

    private let sink: String
    private let url: URL
    private let template: Template
    private let client: any HTTPFetching
    private let now: @Sendable () -> Date

    public init(sink: String, url: URL, template: Template, client: any HTTPFetching, now: @escaping @Sendable () -> Date = { Date() }) {
        self.sink = sink
        self.url = url
        self.template = template
        self.client = client
        self.now = now
    }

    /// Slack's escaping of message text: `&`, `<` and `>` only.
    public static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The JSON POSTed for `delivery`.
    public func body(for delivery: SinkDelivery) -> Data {
        let context = TemplateContext(now: now())
        let items = DeliveredItems.objects(of: delivery).map { item in
            context.value(Self.escapedStrings(.object(item))) ?? [String: Any]()
        }
        let text = template.render([
            "sink": context.text(sink), "count": context.text(String(items.count)), "items": items,
        ] as [String: Any])
        var writer = JSONWriter()
        writer.value(.object(["text": .string(text.trimmingCharacters(in: .newlines))]))
        return Data(writer.bytes)
    }

    private static func escapedStrings(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(escaped(text))
        case .array(let values): .array(values.map(escapedStrings))
        case .object(let members): .object(members.mapValues(escapedStrings))
        default: value
        }
    }

    public func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        // The whole URL is the secret of an incoming webhook: its path is scrubbed from every message.
        SinkPost(url: url, headers: ["Content-Type": "application/json"], body: body(for: delivery), secrets: url.path.count > 1 ? [url.path] : [])
            .send(with: client, cancellation: cancellation, completion: completion)
    }
}
