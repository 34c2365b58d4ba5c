import Domain
import Foundation
import HTTPClient

/// One POST of a delivery to an HTTP receiver (webhook, ntfy, Slack): the HTTP client makes one attempt (retries
/// are `DeliverToSinkUseCase`'s), and the answer becomes the attempt's result. `secrets` are scrubbed from
/// every message.
struct SinkPost: Sendable {
    let url: URL
    let headers: HTTPHeaders
    let body: Data
    let secrets: [String]

    func send(
        with client: any HTTPFetching, cancellation: CancellationToken,
        completion: @escaping @Sendable (SinkAttemptResult) -> Void
    ) {
        let request = HTTPRequest(.post, url: url, headers: headers, body: body, secrets: secrets)
        let target = request.redactedURL
        client.fetch(request, cancellation: cancellation) { result in
            switch result {
            case .success(let response):
                completion(Self.outcome(of: response, target: target))
            case .failure(let error) where error.kind == .configuration:
                completion(.rejected(error))
            case .failure(let error):
                completion(.retryable(error, retryAfter: nil))
            }
        }
    }

    /// 2xx: taken. 429 and 5xx: worth another try (after `Retry-After` when given). Anything else: refused.
    static func outcome(of response: HTTPResponse, target: String) -> SinkAttemptResult {
        if response.isSuccess { return .delivered }
        let message = "POST \(target) answered HTTP \(response.status)"
        switch response.status {
        case 429, 500...599:
            let kind: SourceError.Kind = response.status == 429 ? .rateLimited : .network
            let retryAfter = response.headers["Retry-After"].flatMap { RetryPolicy.parseRetryAfter($0) }
            return .retryable(SourceError(kind, message), retryAfter: retryAfter)
        case 401, 403:
            return .rejected(SourceError(.unauthorized, message))
        default:
            return .rejected(SourceError(.badResponse, message))
        }
    }
}

/// The items of a delivery as the output contract's objects (each line of `itemLines`), for the transports
/// that write a message of their own.
enum DeliveredItems {
    static func objects(of delivery: SinkDelivery) -> [JSONObject] {
        delivery.itemLines.split(separator: UInt8(ascii: "\n")).compactMap { line in
            (try? JSONValue.parse(Data(line)))?.objectValue
        }
    }

    /// The short names an item carries that a notification can show as tags: its labels' names, categories
    /// and tags (at most `limit`).
    static func tags(of item: JSONObject, limit: Int = 5) -> [String] {
        let fields = item["fields"]?.objectValue ?? [:]
        let values = ["labels", "categories", "tags"].flatMap { fields[$0]?.arrayValue ?? [] }
        let names = values.compactMap { $0.stringValue ?? $0["name"]?.stringValue }.filter { !$0.isEmpty }
        return Array(names.prefix(limit))
    }
}
