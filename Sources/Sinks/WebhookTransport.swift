import Crypto
import Domain
import Foundation
import HTTPClient

/// `"type": "webhook"`: each delivery is one POST of `{"sink", "deliveryId", "items"}`.
///
/// With a secret, `X-Aggregate-Signature: sha256=<hex HMAC-SHA256 of the body>` signs it, as GitHub signs its
/// webhooks; the receiver recomputes it over the raw body with the same secret. `X-Aggregate-Delivery`
/// repeats the delivery id, which stays the same on every attempt. The HTTP client makes one attempt per
/// call (retries are `DeliverToSinkUseCase`'s) and refuses a secret over plain http to a host that is not
/// loopback; the secret and a password in the URL are scrubbed from every message.
public struct WebhookTransport: SinkTransport {
    public static let signatureHeader = "X-Aggregate-Signature"
    public static let deliveryHeader = "X-Aggregate-Delivery"

    private let sink: String
    private let url: URL
    private let secret: String?
    private let client: any HTTPFetching

    /// - Parameter client: made with no retries of its own.
    public init(sink: String, url: URL, secret: String?, client: any HTTPFetching) {
        self.sink = sink
        self.url = url
        self.secret = secret.flatMap { $0.isEmpty ? nil : $0 }
        self.client = client
    }

    /// What a message may show of `url`: without its password or secret query values.
    public static func displayURL(_ url: URL) -> String { Redactor.redact(url) }

    /// The secrets a webhook's request carries: the signing secret and the URL's password.
    var secrets: [String] {
        [secret, URLComponents(url: url, resolvingAgainstBaseURL: false)?.password].compactMap { $0 }
    }

    /// Nil when the sink may send to `url`; else why not (plain http with a credential to another host).
    public static func transportProblem(url: URL, secret: String?) -> String? {
        let hasCredential = !(secret ?? "").isEmpty || URLComponents(url: url, resolvingAgainstBaseURL: false)?.password != nil
        return hasCredential ? Redactor.credentialTransportProblem(url) : nil
    }

    /// The exact bytes POSTed: the same for every attempt of a delivery.
    public static func body(sink: String, delivery: SinkDelivery) -> Data {
        var json = JSONWriter(capacity: delivery.itemLines.count + 128)
        json.beginObject()
        json.key("sink")
        json.string(sink)
        json.key("deliveryId")
        json.string(delivery.id)
        json.key("items")
        // The stored lines are items already (a newline never occurs inside one): joined by commas, an array.
        json.byte(UInt8(ascii: "["))
        for (index, line) in delivery.itemLines.split(separator: UInt8(ascii: "\n")).enumerated() {
            if index > 0 { json.byte(UInt8(ascii: ",")) }
            json.raw(bytes: Array(line))
        }
        json.byte(UInt8(ascii: "]"))
        json.endObject()
        return Data(json.bytes)
    }

    /// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with `secret`.
    public static func signature(of body: Data, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + Array(mac).hexDigits
    }

    public func send(
        _ delivery: SinkDelivery, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        let body = Self.body(sink: sink, delivery: delivery)
        var headers: HTTPHeaders = ["Content-Type": "application/json", Self.deliveryHeader: delivery.id]
        if let secret { headers.add(Self.signatureHeader, Self.signature(of: body, secret: secret)) }
        SinkPost(url: url, headers: headers, body: body, secrets: secrets)
            .send(with: client, cancellation: cancellation, completion: completion)
    }
}
