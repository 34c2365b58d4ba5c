import Domain
import Foundation

/// What the server answered, whatever the status: the caller decides what a status means
/// (`validated()` maps 4xx/5xx to `SourceError`; a cache layer needs 304 as it is).
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The response's header fields.
    public var headers: HTTPHeaders
    /// The body, whole (at most the client's `maxResponseBytes`).
    public var body: Data
    /// The URL that answered (after redirects): relative `Link` targets resolve against it.
    public var url: URL
    /// How many times the request was repeated before this answer.
    public var retries: Int

    /// A response, as a client or a test's fake makes one.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data(), url: URL, retries: Int = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.retries = retries
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as UTF-8 text (lossy), for error messages and non-JSON formats.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Decodes a JSON body; anything undecodable is `badResponse` with a short reason and no data from the
    /// body beyond the failing key path.
    public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) -> Result<T, SourceError> {
        do {
            return .success(try decoder.decode(type, from: body))
        } catch let error as DecodingError {
            return .failure(SourceError(.badResponse, "undecodable response: \(Self.describe(error))\(contentTypeNote)"))
        } catch {
            return .failure(SourceError(.badResponse, "undecodable response\(contentTypeNote)"))
        }
    }

    private var contentTypeNote: String {
        guard let type = headers["Content-Type"], !type.lowercased().contains("json") else { return "" }
        return " (content type \(type.split(separator: ";").first.map(String.init) ?? type), expected JSON)"
    }

    /// A one-line reason: "missing key 'main'", "expected a number at main.temp", "not valid JSON".
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath)
            return "missing key '\(key.stringValue)'" + (at.isEmpty ? "" : " in \(at)")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let at = path(context.codingPath)
            return "expected \(typeName(type))" + (at.isEmpty ? "" : " at \(at)")
        case .dataCorrupted(let context):
            let at = path(context.codingPath)
            return at.isEmpty ? "not valid JSON" : "invalid value at \(at)"
        @unknown default:
            return "unexpected shape"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type, is Float.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
