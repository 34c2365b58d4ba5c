import Foundation

/// Durations as people write them: `90` (seconds), `30s`, `10m`, `24h`, `7d`, `2w`, and sums such as
/// `1h30m`. One reading for every option and flag that takes one (`--stop-after`, GitHub's `since`).
public enum DurationText {
    /// Seconds, or nil when `text` is not a positive duration.
    public static func seconds(_ text: String) -> TimeInterval? {
        let text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let plain = Double(text) { return plain > 0 && plain.isFinite ? plain : nil }
        var total = 0.0
        var number = ""
        for character in text {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number), let unit = unitSeconds[character] else { return nil }
            total += value * unit
            number = ""
        }
        guard number.isEmpty, total > 0, total.isFinite else { return nil }
        return total
    }

    private static let unitSeconds: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
}
