import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderKit

/// Runs a source the way `aggregate` does (its own timeout, cancellation at the deadline) and hands back
/// its report: items, warnings, status and error.
///
/// Async on purpose: the wait suspends instead of blocking, so it is safe from any Swift Testing test. On
/// Linux the cooperative pool and `DispatchQueue.global()` are the same few threads (one per core), and the
/// use case's fan-out, completions and timers run there: a blocked test thread would stall every run.
///
public enum SourceRunner {
    /// The timeout of tests where time is not the subject. It only matters when a run hangs; a passing run
    /// ends when its work does. Tests about timeouts pass their own, short ones.
    public static let roomyTimeout: Double = 30

    /// Runs `source` alone through Domain's `AggregateSourcesUseCase`, as the engine runs one source, and returns
    /// its report; `timeoutSeconds` and `concurrency` are the source's manifest settings.
    public static func run(
        _ source: any ItemSource, id: String = "test", provider: String = "test", timeoutSeconds: Double = roomyTimeout,
        concurrency: Int = 4
    ) async -> SourceReport {
        let descriptor = SourceDescriptor(id: id, provider: provider, timeoutSeconds: timeoutSeconds, concurrency: concurrency)
        return await AggregateSourcesUseCase().execute([PlannedSource(descriptor: descriptor, plan: .load(source))])
            .sources[0]
    }

    /// Every human-readable text a report carries (error, message, warnings, item texts): what a redaction
    /// test searches for secrets.
    public static func texts(of report: SourceReport) -> [String] {
        var texts = report.warnings
        if let error = report.error { texts.append(error.description) }
        if let message = report.message { texts.append(message) }
        for item in report.items {
            texts.append(item.id)
            texts.append(item.title)
            texts.append(item.subtitle ?? "")
            texts.append(item.url?.absoluteString ?? "")
            texts.append(JSONValue.object(item.fields).compactJSON)
        }
        return texts
    }
}

extension ProviderServices {
    /// What a provider test's sources get: the live HTTP client factory and nothing stored. The machine's
    /// proxy and CA variables are left out, so a test runs the same on every machine.
    public static var live: ProviderServices {
        var services = ProviderServices()
        services.http = LiveHTTPClientFactory(network: NetworkEnvironment([:]))
        return services
    }
}

extension SourceConfiguration {
    /// A configuration as the manifest loader would build it, for provider tests: HTTP goes through the live
    /// libcurl client (to a loopback fixture server), without the response cache.
    public static func testing(
        id: String = "test", options: JSONValue, timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4,
        query: String? = nil, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
        baseDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) -> SourceConfiguration {
        SourceConfiguration(
            id: id, options: options, optionsPath: "sources[0].options", baseDirectory: baseDirectory,
            timeoutSeconds: timeoutSeconds, concurrency: concurrency, query: query, logger: logger,
            services: .live)
    }
}
