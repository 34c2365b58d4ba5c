import Domain
import Foundation

/// Values formatted for people (table, Markdown, progress); machine formats never use these.
public enum HumanFormat {
    /// `4 ms` under a second, `1.2 s` from there.
    static func duration(_ seconds: TimeInterval) -> String {
        let milliseconds = ReportJSON.milliseconds(seconds)
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        return "\(oneDecimal(Double(milliseconds) / 1000)) s"
    }

    /// `1 item`, `3 items`.
    public static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `2026-11-20` for a date at midnight UTC (a date without a time), else `2026-11-20 08:00` (UTC).
    static func date(_ date: Date) -> String {
        let iso = ISO8601.string(from: date)  // 2026-11-20T08:00:00Z
        let day = String(iso.prefix(10))
        guard iso.count >= 16 else { return iso }
        let time = iso.dropFirst(11).prefix(5)
        return time == "00:00" && iso.dropFirst(17).hasPrefix("00") ? day : "\(day) \(time)"
    }

    /// An ISO 8601 string field as a people date; other strings as they are.
    static func date(field value: JSONValue?) -> String {
        guard let text = value?.stringValue else { return value?.displayText ?? "" }
        return ISO8601.date(from: text).map(date) ?? text
    }

    /// Always one decimal: `7.0`, `21.3`, `-0.5`.
    static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        let tenths = Int((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// A number rounded to one decimal, printed without a needless `.0` (`21.3`, `21`).
    static func rounded(_ value: JSONValue?) -> String? {
        switch value {
        case .int(let number): String(number)
        case .double(let number) where number.isFinite: JSONValue.double((number * 10).rounded() / 10).displayText
        case .string(let text): text
        default: nil
        }
    }
}
