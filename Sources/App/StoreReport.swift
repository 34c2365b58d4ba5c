import Foundation
import SQLiteStore
import StoreSupport

/// What `aggregate cache stats|clear` and `aggregate history clear` print.
public enum StoreReport {
    /// A header row and one row per source: responses (fresh of all), size, newest response's age, the last
    /// good copy's items and age, history size.
    public static func statsRows(_ stats: [StoreMaintenance.SourceStats], now: Date = Date()) -> [[String]] {
        let header = ["SOURCE", "RESPONSES", "FRESH", "SIZE", "NEWEST", "LAST GOOD COPY", "HISTORY"]
        let rows = stats.map { source -> [String] in
            [
                source.sourceID, String(source.responses), String(source.freshResponses), bytes(source.bytes),
                source.newestResponse.map { RunStorage.describeAge(now.timeIntervalSince($0)) + " ago" } ?? "-",
                source.snapshotSavedAt.map {
                    "\(source.snapshotItems) items, \(RunStorage.describeAge(now.timeIntervalSince($0))) ago"
                } ?? "-",
                "\(source.historyItems) items",
            ]
        }
        return [header] + rows
    }

    /// `removed 12 responses and 2 last good copies (source weather)`.
    public static func cleared(_ removed: StoreMaintenance.Removed, cache: Bool, sourceID: String?) -> String {
        let scope = sourceID.map { " of source \($0)" } ?? ""
        if cache {
            return "removed \(count(removed.responses, "stored response")) and "
                + "\(count(removed.snapshots, "last good copy", plural: "last good copies"))\(scope)"
        }
        return "forgot \(count(removed.historyItems, "seen item"))\(scope)"
    }

    static func count(_ value: Int, _ noun: String, plural: String? = nil) -> String {
        "\(value) \(value == 1 ? noun : plural ?? noun + "s")"
    }

    /// `812 B`, `4.2 KiB`, `3.0 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        let kib = Double(count) / 1024
        if kib < 1024 { return String(format: "%.1f KiB", kib) }
        return String(format: "%.1f MiB", kib / 1024)
    }
}
