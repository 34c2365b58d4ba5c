import Foundation
import Logging
import Synchronization

/// Collects every line logged through its loggers, so tests can read `--verbose` output (and check that no
/// secret is in it).
public final class LogCapture: Sendable {
    private let entries = Mutex<[(level: Logger.Level, message: String, line: String)]>([])

    /// A capture with nothing logged yet.
    public init() {}

    /// A logger that records everything at `level` and above, metadata included.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line as `level message key=value…`.
    public var messages: [String] { entries.withLock { $0.map(\.line) } }

    /// The bare messages logged at exactly `level`.
    public func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    fileprivate func append(_ level: Logger.Level, message: String, line: String) {
        entries.withLock { $0.append((level, message, line)) }
    }
}

private struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let metadataText = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: " ")
        capture.append(event.level, message: event.message.description, line: "\(event.level) \(event.message)\(metadataText)")
    }
}
