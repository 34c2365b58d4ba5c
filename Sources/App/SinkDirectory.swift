import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderKit
import Sinks

/// Builds each manifest sink's transport (`${VAR}`s substituted from the environment) and checks what only
/// the substituted values can show: a webhook's URL, and a secret that would go over plain http.
struct SinkDirectory: Sendable {
    let environment: [String: String]
    let baseDirectory: URL
    let logger: Logger
    var http: any HTTPClientFactory = LiveHTTPClientFactory()

    /// The sink's transport, or why it cannot be used now (a variable that is not set, a bad URL).
    func transport(for sink: Manifest.Sink) -> Result<any SinkTransport, SourceError> {
        let resolved = EnvironmentSubstitution.apply(to: .object(sink.settings), environment: environment)
        if !resolved.missing.isEmpty {
            let names = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
            return .failure(SourceError(.configuration, "needs environment variable \(names), which is not set"))
        }
        var sinkLogger = logger
        sinkLogger[metadataKey: "source"] = "sink \(sink.id)"
        switch sink.kind {
        case .webhook:
            let secret = resolved.value["secret"]?.stringValue
            switch Self.webhookURL(resolved.value["url"]?.stringValue ?? "", secret: secret) {
            case .failure(let error): return .failure(error)
            case .success(let url):
                let client = http.makeClient(HTTPClientConfiguration(
                    requestTimeout: sink.timeoutSeconds, retry: RetryPolicy(maxRetries: 0), logger: sinkLogger,
                    sourceID: "sink \(sink.id)"))
                return .success(WebhookTransport(sink: sink.id, url: url, secret: secret, client: client))
            }
        case .exec:
            let strings = { (key: String) in resolved.value[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
            let env = resolved.value["env"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]
            return .success(ExecTransport(
                sink: sink.id, argv: strings("command") + strings("args"), environment: env, baseDirectory: baseDirectory,
                timeoutSeconds: sink.timeoutSeconds, logger: sinkLogger))
        }
    }

    /// The problems of a manifest's sinks that need their `${VAR}`s: a sink whose variables are not set is
    /// checked when it runs.
    func problems(of sinks: [Manifest.Sink]) -> [ManifestProblem] {
        sinks.compactMap { sink -> ManifestProblem? in
            guard sink.kind == .webhook else { return nil }
            let resolved = EnvironmentSubstitution.apply(to: .object(sink.settings), environment: environment)
            guard resolved.missing.isEmpty, case .failure(let error) = Self.webhookURL(
                resolved.value["url"]?.stringValue ?? "", secret: resolved.value["secret"]?.stringValue)
            else { return nil }
            return ManifestProblem(path: "\(sink.path).url", message: error.message)
        }
    }

    /// An absolute http(s) URL with a host, to which the secret may be sent.
    static func webhookURL(_ text: String, secret: String?) -> Result<URL, SourceError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            return .failure(SourceError(.configuration, "expected an http:// or https:// URL with a host"))
        }
        if let problem = WebhookTransport.transportProblem(url: url, secret: secret) {
            return .failure(SourceError(.configuration, problem))
        }
        return .success(url)
    }
}
