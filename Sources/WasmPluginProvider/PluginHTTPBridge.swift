import Domain
import Foundation
import HTTPClient

/// A plugin's `http_request`: its JSON request checked (allowed host, known credentials), sent through the
/// source's HTTP client (response cache, retries, the run's request slots, redaction), and the answer as JSON.
///
/// Request:  `{"method":"GET","url":"https://api.acme.example/v1/x","headers":{"Accept":"application/json"},
///             "body":"…","credentials":[{"header":"Authorization","name":"token","prefix":"Bearer "}]}`
/// Response: `{"status":200,"headers":{"content-type":"…"},"body":"…"}` or
///           `{"error":{"kind":"network","message":"…"}}` when no response arrived.
///
/// A credential's value is added by the host and never given to the plugin; it is among the request's secrets,
/// so the client scrubs it from every message.
struct PluginHTTPBridge: Sendable {
    let plugin: PluginDeclaration
    let client: any HTTPFetching
    /// The source's `options.credentials`, by name: values the plugin never sees.
    let credentials: [String: String]
    let cancellation: CancellationToken

    /// Sends the request and waits for its answer: the caller is the plugin's own thread, never the pool.
    func perform(_ bytes: [UInt8]) throws(PluginFailure) -> [UInt8] {
        let request = try Self.request(from: bytes, plugin: plugin, credentials: credentials)
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        client.fetch(request, cancellation: cancellation) { result in
            answer.result = result
            done.signal()
        }
        done.wait()
        if cancellation.isCancelled { throw .timedOut }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        switch answer.result {
        case .success(let response)?:
            writer.key("status")
            writer.int(response.status)
            writer.key("headers")
            writer.beginObject()
            for field in response.headers {
                writer.key(field.name.lowercased())
                writer.string(Redactor.scrub(field.value, secrets: request.secrets))
            }
            writer.endObject()
            writer.key("body")
            // A server that echoes the credential back must not hand it to the plugin.
            writer.string(request.secrets.isEmpty ? response.text : Redactor.scrub(response.text, secrets: request.secrets))
        case .failure(let error)?:
            writer.key("error")
            writer.beginObject()
            writer.key("kind"); writer.string(error.kind.rawValue)
            writer.key("message"); writer.string(Redactor.scrub(error.message, secrets: request.secrets))
            writer.endObject()
        case nil:
            throw .protocolViolation("the HTTP client answered nothing")
        }
        writer.endObject()
        return writer.bytes
    }

    /// The request a plugin asked for, refused when it breaks the rules.
    static func request(
        from bytes: [UInt8], plugin: PluginDeclaration, credentials: [String: String]
    ) throws(PluginFailure) -> HTTPRequest {
        guard let json = try? JSONValue.parse(Data(bytes)), case .object(let object) = json else {
            throw .protocolViolation("http_request was given something other than a JSON object")
        }
        guard let text = object["url"]?.stringValue, let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw .protocolViolation("http_request needs an http:// or https:// \"url\" with a host")
        }
        guard plugin.allows(host: host) else { throw .hostNotAllowed(host) }
        let methodName = (object["method"]?.stringValue ?? "GET").uppercased()
        guard let method = HTTPRequest.Method(rawValue: methodName) else {
            throw .protocolViolation("http_request: unknown method '\(methodName)'")
        }
        var headers = HTTPHeaders()
        if case .object(let fields)? = object["headers"] {
            for (name, value) in fields {
                guard let value = value.stringValue else { throw .protocolViolation("http_request: header '\(name)' must be a string") }
                headers.add(name, value)
            }
        }
        var secrets: [String] = []
        if case .array(let uses)? = object["credentials"] {
            for use in uses {
                guard let header = use["header"]?.stringValue, let name = use["name"]?.stringValue else {
                    throw .protocolViolation("http_request: each credential needs \"header\" and \"name\" strings")
                }
                guard let value = credentials[name] else { throw .unknownCredential(name) }
                headers.remove(header)
                headers.add(header, (use["prefix"]?.stringValue ?? "") + value)
                secrets.append(value)
            }
        }
        let body = object["body"]?.stringValue.map { Data($0.utf8) }
        return HTTPRequest(method, url: url, headers: headers, body: body, secrets: secrets)
    }

    /// The client's answer, handed from its completion to the waiting plugin thread; the semaphore orders the
    /// write before the read, which is what makes the unchecked Sendable safe.
    private final class Answer: @unchecked Sendable {
        var result: Result<HTTPResponse, SourceError>?
    }
}
