import Foundation
import Logging

/// `--verbose` diagnostics on stderr as `aggregate: [source] message`. Providers redact before they log.
struct StandardErrorLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    private let label: String

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let source = merged["source"].map { "[\($0)] " } ?? ""
        let level = event.level >= .warning ? "\(event.level): " : ""
        let extra = merged.filter { $0.key != "source" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let suffix = extra.isEmpty ? "" : " " + extra.joined(separator: " ")
        Terminal.writeError("\(label): \(source)\(level)\(event.message)\(suffix)\n")
    }
}
