import Domain
import Foundation
import Logging
import Templating

/// `"type": "email"`: a digest, one message with every item the attempt carries (the sink's pending deliveries
/// together, `SinkGrouping.digest`), in a plain-text and an HTML part, through SMTP (`SMTPSubmission`: the
/// system's libcurl, on a thread of its own). The subject is a Mustache template over `sink`, `count` and
/// `items`; the bodies list each item's title, link, source and date.
public struct EmailTransport: SinkTransport {
    public static let defaultSubject = "{{count}} new item{{^one}}s{{/one}} from {{sink}}"

    static let textBody = Template.unchecked("""
        {{#items}}{{{title}}}
        {{#url}}{{{url}}}
        {{/url}}{{{source}}}{{#date}} · {{{iso(date)}}}{{/date}}

        {{/items}}
        """)
    static let htmlBody = Template.unchecked("""
        <!DOCTYPE html>
        <html><body>
        <p>{{count}} new item{{^one}}s{{/one}}:</p>
        <ul>
        {{#items}}<li>{{#url}}<a href="{{url}}">{{title}}</a>{{/url}}{{^url}}{{title}}{{/url}} <small>{{source}}{{#date}} · {{iso(date)}}{{/date}}</small></li>
        {{/items}}</ul>
        </body></html>
        """)

    private let sink: String
    private let submission: SMTPSubmission
    private let subject: Template
    private let now: @Sendable () -> Date

    init(sink: String, submission: SMTPSubmission, subject: Template, now: @escaping @Sendable () -> Date) {
        self.sink = sink
        self.submission = submission
        self.subject = subject
        self.now = now
    }

    /// - Parameters:
    ///   - url: `smtp://host:port` (STARTTLS when the server offers it; required when credentials go to a host
    ///     that is not loopback) or `smtps://host:port`.
    ///   - caFile: a PEM bundle of CAs to trust instead of the system's.
    public init(
        sink: String, url: URL, from: String, to: [String], username: String?, password: String?, caFile: URL?,
        subject: Template, timeoutSeconds: Double, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(
            sink: sink,
            submission: SMTPSubmission(
                server: .init(url: url, username: username, password: password, caFile: caFile, timeoutSeconds: timeoutSeconds),
                from: from, recipients: to),
            subject: subject, now: now)
    }

    /// Nil when `url` is an SMTP server's (`smtp://` or `smtps://` with a host); else why not.
    public static func serverProblem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["smtp", "smtps"].contains(scheme), url.host?.isEmpty == false else {
            return "expected smtp://host:port (STARTTLS when offered) or smtps://host:port"
        }
        return nil
    }

    /// The message for `delivery`.
    public func message(for delivery: SinkDelivery) -> EmailMessage {
        let date = now()
        let context = TemplateContext(now: date)
        let items = DeliveredItems.objects(of: delivery).map { context.value(.object($0)) ?? [String: Any]() }
        let values: [String: Any] = [
            "sink": context.text(sink), "count": context.text(String(items.count)), "one": items.count == 1, "items": items,
        ]
        return EmailMessage(
            from: submission.from, to: submission.recipients,
            subject: subject.render(values).trimmingCharacters(in: .whitespacesAndNewlines),
            text: Self.textBody.render(values), html: Self.htmlBody.render(values),
            messageID: "\(delivery.id)@aggregate", date: date)
    }

    public func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        let bytes = message(for: delivery).bytes
        let submission = self.submission
        // libcurl's SMTP transfer blocks: a thread of its own, never a pool thread.
        let thread = Thread {
            completion(submission.send(bytes) { cancellation.isCancelled })
        }
        thread.name = "aggregate.smtp"
        thread.start()
    }
}
