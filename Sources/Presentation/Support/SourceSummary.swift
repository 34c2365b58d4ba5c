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

    /// `3 items`, or `3 items (2 filtered out)` when the manifest's filter dropped some; nothing for a skipped
    /// source.
    static func itemCount(of source: SourceReport, options: RenderOptions) -> String? {
        guard source.status != .skipped || source.itemCount > 0 else { return nil }
        let count = HumanFormat.count(source.itemCount, "item")
        guard let filtered = source.filteredItemCount, filtered > 0 else { return count }
        return "\(count) (\(filtered) filtered out)"
    }
}
