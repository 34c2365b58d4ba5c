import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderKit
import Sinks
import Templating

/// Builds each manifest sink's transport (`${VAR}`s substituted from the environment, secret references read)
/// and checks what only the substituted values can show: a receiver's URL, and a credential that would go over
/// plain http.
struct SinkDirectory: Sendable {
    let environment: [String: String]
    let baseDirectory: URL
    let logger: Logger
    var http: any HTTPClientFactory = LiveHTTPClientFactory()
    /// Credential helpers' answers (the container's, so a watch asks once).
    var secretCache = SecretCache()
    /// `defaults.caFile`: what an email sink trusts unless it names its own `caFile`.
    var defaultCAFile: URL?

    /// The sink's transport, or why it cannot be used now (a variable that is not set, a secret that cannot be
    /// read, a bad URL). Secret references are read on a thread of their own; `completion` runs once, on no
    /// particular thread.
    func transport(
        for sink: Manifest.Sink, cancellation: CancellationToken?,
        completion: @escaping @Sendable (Result<any SinkTransport, SourceError>) -> Void
    ) {
        let resolved = EnvironmentSubstitution.apply(to: .object(sink.settings), environment: environment)
        if !resolved.missing.isEmpty {
            let names = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
            return completion(.failure(SourceError(.configuration, "needs environment variable \(names), which is not set")))
        }
        let references = references(of: sink, in: resolved.value)
        guard !references.isEmpty else { return completion(transport(for: sink, settings: resolved.value)) }
        references.resolve(
            in: resolved.value, baseDirectory: baseDirectory, timeoutSeconds: sink.timeoutSeconds, cancellation: cancellation,
            environment: environment, cache: secretCache
        ) { result in
            completion(result.flatMap { transport(for: sink, settings: $0) })
        }
    }

    /// The secret references among a sink's settings (after `${VAR}` substitution).
    func references(of sink: Manifest.Sink, in settings: JSONValue) -> SecretReferences {
        SecretReferences(
            settings, secretKeys: sink.kind.secretKeys, secretMemberKeys: sink.kind.secretMemberKeys, path: sink.path)
    }

    /// The transport from settings whose variables and secrets are all strings now.
    private func transport(for sink: Manifest.Sink, settings: JSONValue) -> Result<any SinkTransport, SourceError> {
        var sinkLogger = logger
        sinkLogger[metadataKey: "source"] = "sink \(sink.id)"
        let client = { http.makeClient(HTTPClientConfiguration(
            requestTimeout: sink.timeoutSeconds, retry: RetryPolicy(maxRetries: 0), logger: sinkLogger,
            sourceID: "sink \(sink.id)")) }
        switch sink.kind {
        case .webhook:
            let secret = settings["secret"]?.stringValue
            return Self.receiverURL(settings["url"]?.stringValue ?? "", credential: secret).map { url in
                WebhookTransport(sink: sink.id, url: url, secret: secret, client: client())
            }
        case .exec:
            let strings = { (key: String) in settings[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
            let env = settings["env"]?.objectValue?.compactMapValues(\.stringValue) ?? [:]
            return .success(ExecTransport(
                sink: sink.id, argv: strings("command") + strings("args"), environment: env, baseDirectory: baseDirectory,
                timeoutSeconds: sink.timeoutSeconds, logger: sinkLogger))
        case .ntfy:
            let token = settings["token"]?.stringValue
            let priority = settings["priority"].flatMap { value -> Int? in
                if case .int(let number) = value { return number }
                return value.stringValue.flatMap { NtfyTransport.priorities[$0] }
            }
            let tags = settings["tags"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return Self.receiverURL(settings["url"]?.stringValue ?? "", credential: token).flatMap { url in
                if let problem = NtfyTransport.topicProblem(url) { return .failure(SourceError(.configuration, problem)) }
                return .success(NtfyTransport(topicURL: url, token: token, priority: priority, tags: tags, client: client()))
            }
        case .slack:
            let text = settings["url"]?.stringValue ?? ""
            // The URL is the credential: never echoed, and never sent over plain http to another host.
            return Self.receiverURL(text, credential: text).flatMap { url in
                slackTemplate(settings["template"]?.stringValue).map { template in
                    SlackTransport(sink: sink.id, url: url, template: template, client: client())
                }
            }
        case .email:
            return emailTransport(for: sink, settings: settings)
        }
    }

    /// An email sink's transport.
    private func emailTransport(for sink: Manifest.Sink, settings: JSONValue) -> Result<any SinkTransport, SourceError> {
        guard let url = URL(string: settings["url"]?.stringValue ?? "") else {
            return .failure(SourceError(.configuration, "expected smtp://host:port or smtps://host:port"))
        }
        if let problem = EmailTransport.serverProblem(url) { return .failure(SourceError(.configuration, problem)) }
        let caFile = settings["caFile"]?.stringValue.map {
            SecretReference.resolve($0, baseDirectory: baseDirectory, environment: environment)
        } ?? defaultCAFile
        return Self.template(settings["subject"]?.stringValue, default: EmailTransport.defaultSubject, baseDirectory: baseDirectory)
            .map { subject in
                EmailTransport(
                    sink: sink.id, url: url, from: settings["from"]?.stringValue ?? "",
                    to: settings["to"]?.arrayValue?.compactMap(\.stringValue) ?? [], username: settings["username"]?.stringValue,
                    password: settings["password"]?.stringValue, caFile: caFile, subject: subject,
                    timeoutSeconds: sink.timeoutSeconds)
            }
    }

    /// A Slack sink's template: the text, `@FILE` (relative to the manifest), or the default.
    func slackTemplate(_ setting: String?) -> Result<Template, SourceError> {
        Self.template(setting, default: SlackTransport.defaultTemplate, baseDirectory: baseDirectory)
    }

    /// A template setting: `TEXT`, or `@FILE` read relative to the manifest; nil takes `defaultText`.
    static func template(_ setting: String?, default defaultText: String, baseDirectory: URL) -> Result<Template, SourceError> {
        var text = setting ?? defaultText
        if text.hasPrefix("@") {
            let url = SecretReference.resolve(String(text.dropFirst()), baseDirectory: baseDirectory, environment: [:])
            guard let data = FileManager.default.contents(atPath: url.path) else {
                return .failure(SourceError(.configuration, "template file \(url.path) cannot be read"))
            }
            text = String(decoding: data, as: UTF8.self)
        }
        do throws(Template.Problem) {
            return .success(try Template(text))
        } catch {
            return .failure(SourceError(.configuration, "template \(error.summary)"))
        }
    }

    /// The problems of a manifest's sinks that need their `${VAR}`s: a sink whose variables are not set is
    /// checked when it runs, and a URL given by reference too (validation reads no secret).
    func problems(of sinks: [Manifest.Sink]) -> [ManifestProblem] {
        sinks.flatMap { sink -> [ManifestProblem] in
            let resolved = EnvironmentSubstitution.apply(to: .object(sink.settings), environment: environment)
            guard resolved.missing.isEmpty else { return [] }
            let references = references(of: sink, in: resolved.value)
            let settings = references.placeholders(in: resolved.value)
            var problems: [ManifestProblem] = []
            // An email sink's smtp(s):// URL is checked with the rest of its settings, below.
            if sink.kind != .email, let url = settings["url"]?.stringValue, references.references["url"] == nil {
                let credential = sink.kind.secretKeys.compactMap { settings[$0]?.stringValue }.first
                var checked = Self.receiverURL(url, credential: credential)
                if sink.kind == .ntfy, case .success(let topic) = checked, let problem = NtfyTransport.topicProblem(topic) {
                    checked = .failure(SourceError(.configuration, problem))
                }
                if case .failure(let error) = checked {
                    problems.append(ManifestProblem(path: "\(sink.path).url", message: error.message))
                }
            }
            if sink.kind == .slack, case .failure(let error) = slackTemplate(settings["template"]?.stringValue) {
                problems.append(ManifestProblem(path: "\(sink.path).template", message: error.message))
            }
            if sink.kind == .email, case .failure(let error) = emailTransport(for: sink, settings: settings) {
                let key = error.message.hasPrefix("template") ? "subject" : "url"
                problems.append(ManifestProblem(path: "\(sink.path).\(key)", message: error.message))
            }
            return problems
        }
    }

    /// An absolute http(s) URL with a host, to which the credential may be sent.
    static func receiverURL(_ text: String, credential: String?) -> Result<URL, SourceError> {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false
        else {
            return .failure(SourceError(.configuration, "expected an http:// or https:// URL with a host"))
        }
        if let problem = WebhookTransport.transportProblem(url: url, secret: credential) {
            return .failure(SourceError(.configuration, problem))
        }
        return .success(url)
    }
}
