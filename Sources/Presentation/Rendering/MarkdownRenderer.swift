import Domain

/// `--format markdown`: a `## id (provider) — status, N items` section per source with its problems and
/// warnings, then a GitHub table of its items (the table renderer's kind-aware columns, titles linked
/// to the item's URL). Text from the data is escaped so it can neither break the table (`|`, line
/// breaks) nor turn into markup or HTML.
public struct MarkdownRenderer {
    public init() {}

    private func heading(_ source: SourceReport, options: RenderOptions) -> String {
        var parts = [source.status.rawValue, HumanFormat.count(source.itemCount, "item")]
        if options.verbose, source.status != .skipped { parts.append(HumanFormat.duration(source.duration)) }
        let name = Self.escape(source.id, lineBreak: " ")
        let provider = Self.escape(source.descriptor.provider, lineBreak: " ")
        return "## \(name) (\(provider)) — " + parts.joined(separator: ", ")
    }

    /// A run's table; `next` gives its items, in order.
    private func writeTable(_ run: ItemRun, next: () -> Item?, to output: inout some TextOutputStream) {
        let columns = run.columns
        let headers = columns.map { $0.header.prefix(1) + $0.header.dropFirst().lowercased() }
        output.write("| " + headers.joined(separator: " | ") + " |\n")
        output.write("|" + columns.map { $0.alignment == .right ? " ---: |" : " --- |" }.joined() + "\n")
        for _ in 0..<run.count {
            guard let item = next() else { return }
            let cells = columns.map { column in
                let text = Self.escape(column.value(item))
                guard column.isTitle, let url = item.url else { return text }
                return "[\(text)](\(Self.escapeURL(url.absoluteString)))"
            }
            output.write("| " + cells.joined(separator: " | ") + " |\n")
        }
    }

    /// Escapes Markdown and HTML syntax that can act mid-line (callers never start a line with data, so
    /// `#`, `-` and `1.` need nothing); line breaks become `lineBreak` (`<br>` inside table cells).
    static func escape(_ text: String, lineBreak: String = "<br>") -> String {
        text.utf8.contains(where: needsEscaping) ? escapeEach(text, lineBreak: lineBreak) : text
    }

    /// `escape`, character by character.
    static func escapeEach(_ text: String, lineBreak: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\n", "\r", "\r\n": out += lineBreak
            case "\\", "|", "*", "_", "`", "[", "]": out += "\\" + String(character)
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default:
                if character.unicodeScalars.contains(where: TerminalText.isControl) {
                    out += " "
                } else {
                    out.append(character)
                }
            }
        }
        return out
    }

    /// Whether a UTF-8 byte can start something `escape` changes: a character it escapes, a control character
    /// (C0, DEL) or any non-ASCII byte (C1 controls are two bytes from 0xC2); plain ASCII text is returned as is.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x20, 0x7F..., UInt8(ascii: "\\"), UInt8(ascii: "|"), UInt8(ascii: "*"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: ">"),
            UInt8(ascii: "&"):
            true
        default:
            false
        }
    }

    /// A URL safe inside `(…)` of a link: the characters that would end or split it, percent-encoded.
    static func escapeURL(_ url: String) -> String {
        var out = ""
        for scalar in url.unicodeScalars {
            switch scalar {
            case "(": out += "%28"
            case ")": out += "%29"
            case "|": out += "%7C"
            case " ": out += "%20"
            case "<": out += "%3C"
            case ">": out += "%3E"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension MarkdownRenderer: ReportRenderer {
    public func render(_ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream) {
        render(report, options: options, to: &output) { index in
            ShownSourceItems(report.sources[index], options: options, cap: nil, measuringWidths: false)
        }
    }

    /// The document, each source's items from `shown` (the report's, or a spool's).
    func render(
        _ report: AggregateReport, options: RenderOptions, to output: inout some TextOutputStream,
        shown: (_ source: Int) -> ShownSourceItems
    ) {
        output.write("# Aggregate report\n\nGenerated at \(ISO8601.string(from: report.generatedAt)).\n")
        guard !report.sources.isEmpty else {
            output.write("\n_No sources._\n")
            return
        }
        for (index, source) in report.sources.enumerated() {
            output.write("\n" + heading(source, options: options) + "\n")
            let isSkipped = source.status == .skipped
            if let error = source.error {
                let label = isSkipped ? "Skipped" : "Error"
                output.write("\n**\(label) (\(error.kind.rawValue)):** \(Self.escape(error.message, lineBreak: " "))\n")
            }
            if let message = source.message, message != source.error?.message {
                output.write("\n**\(isSkipped ? "Skipped" : "Note"):** \(Self.escape(message, lineBreak: " "))\n")
            }
            if !source.warnings.isEmpty {
                output.write("\n")
                for warning in source.warnings {
                    output.write("- ⚠ " + Self.escape(warning, lineBreak: " ") + "\n")
                }
            }
            let items = shown(index)
            if items.runs.isEmpty, source.status == .ok || source.status == .stale {
                output.write("\n_No items._\n")
            }
            for run in items.runs {
                output.write("\n")
                writeTable(run, next: items.next, to: &output)
            }
            let hidden = items.hidden
            if hidden > 0 {
                output.write("\n_… \(HumanFormat.count(hidden, "more item")) not shown._\n")
            }
        }
    }
}
