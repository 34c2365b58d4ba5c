import Foundation

/// A program's stderr, split into lines as it arrives: the last few are kept for the error message, and
/// every line is handed back (redacted, shortened) for the verbose log. Bounded whatever the program writes.
struct StderrTail: Sendable {
    static let keptLines = 20
    static let shownLines = 5
    static let maxLineLength = 300
    private static let maxPartialBytes = 16 * 1024

    private let secrets: [String]
    private var partial = Data()
    private(set) var lines: [String] = []

    init(secrets: [String]) {
        self.secrets = secrets
    }

    /// Appends a chunk; returns the lines it completed.
    mutating func append(_ chunk: Data) -> [String] {
        partial.append(chunk)
        var completed: [String] = []
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            completed.append(keep(partial[partial.startIndex..<newline]))
            partial = Data(partial[(newline + 1)...])
        }
        if partial.count > Self.maxPartialBytes {  // a line that never ends: keep its start
            completed.append(keep(partial))
            partial = Data()
        }
        return completed
    }

    /// Ends the stream; returns the unterminated last line, if any.
    mutating func finish() -> [String] {
        guard !partial.isEmpty else { return [] }
        defer { partial = Data() }
        return [keep(partial)]
    }

    /// The last lines, joined for a one-line error message.
    var summary: String? {
        let shown = lines.suffix(Self.shownLines).filter { !$0.isEmpty }
        return shown.isEmpty ? nil : shown.joined(separator: " | ")
    }

    private mutating func keep(_ bytes: Data) -> String {
        var line = String(decoding: bytes, as: UTF8.self)
        if line.hasSuffix("\r") { line.removeLast() }
        for secret in secrets {
            line = line.replacingOccurrences(of: secret, with: "***")
        }
        if line.count > Self.maxLineLength {
            line = String(line.prefix(Self.maxLineLength)) + "…"
        }
        lines.append(line)
        if lines.count > Self.keptLines { lines.removeFirst(lines.count - Self.keptLines) }
        return line
    }
}
