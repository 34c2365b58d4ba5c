import Domain

/// The columns people see for each kind of item, shared by the table and Markdown renderers.
struct KindColumn: Sendable {
    var header: String
    var alignment: TerminalText.Alignment = .left
    /// Markdown links this column's text to the item's URL.
    var isTitle = false
    var value: @Sendable (Item) -> String
}

extension KindColumn {
    /// Columns for a run of items of one `kind`. Issues from several repositories are numbered
    /// `owner/name#12` instead of `#12`.
    static func columns(for kind: ItemKind, items: some Collection<Item>) -> [KindColumn] {
        var repositories = RepositorySpread()
        if kind == .issue { for item in items { repositories.add(item) } }
        return columns(for: kind, qualified: repositories.isMany)
    }

    /// Columns for a run of items of one `kind`; `qualified`: its issues come from several repositories.
    static func columns(for kind: ItemKind, qualified: Bool) -> [KindColumn] {
        let title = KindColumn(header: "TITLE", isTitle: true) { $0.title }
        let date = KindColumn(header: "DATE") { item in item.date.map(HumanFormat.date) ?? "" }
        switch kind {
        case .record:
            return [title, date]
        case .weather:
            return [
                KindColumn(header: "CITY", isTitle: true) { item in
                    [item.title, item.fields["country"]?.stringValue].compactMap { $0 }.joined(separator: ", ")
                },
                KindColumn(header: "CONDITION") { item in
                    (item.fields["description"] ?? item.fields["condition"])?.displayText ?? ""
                },
                KindColumn(header: "TEMP", alignment: .right) { item in
                    withUnit(HumanFormat.rounded(item.fields["temperature"]), item.fields["temperatureUnit"])
                },
                KindColumn(header: "HUMIDITY", alignment: .right) { item in
                    withUnit(HumanFormat.rounded(item.fields["humidity"]), "%", separator: "")
                },
                KindColumn(header: "WIND", alignment: .right) { item in
                    withUnit(HumanFormat.rounded(item.fields["windSpeed"]), item.fields["windSpeedUnit"])
                },
            ]
        case .issue:
            return [
                KindColumn(header: "#", alignment: .right) { item in
                    guard let number = item.fields["number"]?.displayText else { return item.id }
                    let repository = item.fields["repository"]?.stringValue
                    return qualified ? "\(repository ?? "")#\(number)" : "#\(number)"
                },
                title,
                KindColumn(header: "LABELS") { item in labels(item.fields["labels"]) },
                KindColumn(header: "UPDATED") { item in
                    item.fields["updatedAt"].map { HumanFormat.date(field: $0) }
                        ?? item.date.map(HumanFormat.date) ?? ""
                },
            ]
        case .movie:
            return [
                title,
                KindColumn(header: "YEAR", alignment: .right) { item in
                    item.date.map { String(ISO8601.string(from: $0).prefix(4)) } ?? ""
                },
                KindColumn(header: "RATING", alignment: .right) { item in
                    switch item.fields["voteAverage"] {
                    case .double(let value): HumanFormat.oneDecimal(value)
                    case .int(let value): HumanFormat.oneDecimal(Double(value))
                    default: ""
                    }
                },
            ]
        case .entry:
            return [
                title,
                KindColumn(header: "FEED") { item in item.fields["feedTitle"]?.stringValue ?? item.subtitle ?? "" },
                date,
                KindColumn(header: "SUMMARY") { item in
                    // The words of the HTML summary, a line's worth; JSON keeps the HTML as published.
                    let text = HTMLText.plain(item.fields["summary"]?.stringValue ?? "")
                    return text.count > 80 ? String(text.prefix(79)) + "…" : text
                },
            ]
        }
    }

    /// `[bug, ui]` from an array of label names or of `{"name": …}` objects; empty when there are none.
    static func labels(_ value: JSONValue?) -> String {
        guard let values = value?.arrayValue, !values.isEmpty else { return "" }
        let names = values.map { $0["name"]?.displayText ?? $0.displayText }
        return "[" + names.joined(separator: ", ") + "]"
    }

    private static func withUnit(_ number: String?, _ unit: JSONValue?) -> String {
        withUnit(number, unit?.stringValue ?? "")
    }

    private static func withUnit(_ number: String?, _ unit: String, separator: String = " ") -> String {
        guard let number else { return "" }
        return unit.isEmpty ? number : number + separator + unit
    }
}

/// Whether a run's issues come from more than one repository (then they are numbered `owner/name#12`),
/// followed item by item in constant memory.
struct RepositorySpread: Sendable {
    private var first: String?
    private(set) var isMany = false

    mutating func add(_ item: Item) {
        guard !isMany, let repository = item.fields["repository"]?.stringValue else { return }
        if let first { isMany = repository != first } else { first = repository }
    }
}
