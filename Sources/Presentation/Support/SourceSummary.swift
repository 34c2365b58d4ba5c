import Domain

/// What people are told about a source's outcome, shared by the table, Markdown and progress output.
enum SourceSummary {
    /// The error as `kind: message`, then the report's message unless it only repeats the error's.
    static func problems(of source: SourceReport) -> [String] {
        var parts: [String] = []
        if let error = source.error { parts.append("\(error.kind.rawValue): \(error.message)") }
        if let message = source.message, message != source.error?.message { parts.append(message) }
        return parts
    }

    /// `3 items`, or `5 items, 2 shown` when `limit` hid some; nothing for a skipped source.
    static func itemCount(of source: SourceReport, options: RenderOptions) -> String? {
        guard source.status != .skipped || source.itemCount > 0 else { return nil }
        return HumanFormat.count(source.itemCount, "item")
    }
}
