import Domain
import Foundation

/// The full-screen view of `aggregate watch`, laid out for a terminal of `width` × `height`: a header line,
/// then one section per source (status, item count, age of its data, next refresh) with as many of its items
/// as fit, new ones (first seen after the watch's first cycle) marked `+`.
public struct WatchScreen: Sendable {
    public var width: Int
    public var height: Int
    public var color: Bool

    public init(width: Int, height: Int, color: Bool) {
        self.width = max(20, width)
        self.height = max(3, height)
        self.color = color
    }

    /// The screen's lines (at most `height`, each at most `width` columns of text).
    public func lines(_ sources: [WatchSourceState], now: Date) -> [String] {
        var lines = [header(sources, now: now)]
        let sections = sources.map { sourceLines($0, now: now) }
        let budget = height - 1 - sections.reduce(0) { $0 + $1.count }  // rows left for items
        let perSource = sources.isEmpty ? 0 : max(0, budget / sources.count)
        for (source, section) in zip(sources, sections) {
            lines += section
            lines += itemLines(source, rows: perSource)
        }
        if lines.count > height {
            let hidden = lines.count - (height - 1)
            lines = Array(lines.prefix(height - 1)) + [dim("… \(hidden) more lines: make the terminal taller")]
        }
        return lines
    }

    private func header(_ sources: [WatchSourceState], now: Date) -> String {
        let running = sources.filter(\.isRunning).count
        let failing = sources.filter { $0.report.map { [.error, .timeout, .stale].contains($0.status) } ?? false }.count
        var text = "aggregate watch · \(sources.count) source\(sources.count == 1 ? "" : "s")"
        if running > 0 { text += " · \(running) loading" }
        if failing > 0 { text += " · \(failing) failing" }
        text += " · r refresh · q quit"
        return ANSIStyle.bold.apply(TerminalText.truncated(text, to: width), enabled: color)
    }

    /// The source's status line, and a line for its error if it has one.
    private func sourceLines(_ source: WatchSourceState, now: Date) -> [String] {
        let (mark, style): (String, ANSIStyle?) =
            if source.isRunning && source.report == nil { ("…", .dim) }
            else { Self.mark(for: source.report?.status) }
        var parts = ["\(source.id)" + (source.provider.map { " (\($0))" } ?? "")]
        if let report = source.report {
            parts.append(report.status.rawValue)
            parts.append(HumanFormat.count(report.itemCount, "item"))
            if let finished = source.finishedAt { parts.append("updated \(Self.age(now.timeIntervalSince(finished))) ago") }
        } else {
            parts.append("waiting for its first run")
        }
        if source.isRunning {
            parts.append("loading…")
        } else if let next = source.next {
            parts.append("next in \(Self.age(max(0, next.timeIntervalSince(now))))")
        }
        if !source.newItemIDs.isEmpty { parts.append("\(source.newItemIDs.count) new") }
        var line = TerminalText.truncated("\(mark) " + parts.joined(separator: " · "), to: width)
        if let style { line = style.apply(line, enabled: color) }
        guard let error = source.report?.error else { return [line] }
        let problem = TerminalText.truncated("  \(error.kind.rawValue): \(TerminalText.sanitized(error.message))", to: width)
        return [line, ANSIStyle.red.apply(problem, enabled: color)]
    }

    private func itemLines(_ source: WatchSourceState, rows: Int) -> [String] {
        guard let items = source.report?.items, rows > 0, !items.isEmpty else { return [] }
        let shown = items.count > rows ? rows - 1 : items.count
        var lines = items.prefix(shown).map { item in
            let isNew = source.newItemIDs.contains(item.id)
            let date = item.date.map { " " + HumanFormat.date($0) } ?? ""
            let room = max(1, width - 4 - TerminalText.width(date))
            let title = TerminalText.fitted(TerminalText.sanitized(item.title), to: room)
            let line = "  \(isNew ? "+" : " ") \(title)\(date)"
            return isNew ? ANSIStyle.green.apply(line, enabled: color) : line
        }
        if items.count > shown { lines.append(dim("    … \(items.count - shown) more")) }
        return lines
    }

    private func dim(_ text: String) -> String { ANSIStyle.dim.apply(TerminalText.truncated(text, to: width), enabled: color) }

    static func mark(for status: SourceStatus?) -> (String, ANSIStyle?) {
        switch status {
        case .ok?: ("●", .green)
        case .stale?: ("◐", .yellow)
        case .error?, .timeout?: ("✗", .red)
        case .skipped?: ("○", .dim)
        case nil: ("…", .dim)
        }
    }

    /// `45 s`, `12 min`, `3 h 5 min`.
    static func age(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        switch total {
        case ..<60: return "\(total) s"
        case ..<3600: return "\(total / 60) min"
        default: return "\(total / 3600) h" + (total % 3600 >= 60 ? " \(total % 3600 / 60) min" : "")
        }
    }
}

/// Draws successive frames of a full-screen view, writing only the rows that changed (no flicker).
public struct ScreenDiff: Sendable {
    private var previous: [String] = []

    public init() {}

    /// What to write to move from the last frame to `lines`: each changed row rewritten in place
    /// (`ESC[row;1H` … `ESC[K`), rows past the end cleared. `full` redraws everything (after a resize).
    public mutating func update(to frame: [String], full: Bool = false) -> String {
        let lines = frame
        var out = full ? "\u{1B}[2J" : ""
        for (row, line) in lines.enumerated() where full || row >= previous.count || previous[row] != line {
            out += "\u{1B}[\(row + 1);1H" + line + "\u{1B}[K"
        }
        if lines.count < previous.count {
            for row in lines.count..<previous.count { out += "\u{1B}[\(row + 1);1H\u{1B}[K" }
        }
        previous = lines
        return out
    }
}
