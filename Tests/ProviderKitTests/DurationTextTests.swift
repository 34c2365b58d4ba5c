import Foundation
import ProviderKit
import Testing

@Suite("Durations as people write them")
struct DurationTextTests {
    @Test("units and sums read as seconds", arguments: [
        ("90", 90.0), ("30s", 30), ("10m", 600), ("24h", 86_400), ("7d", 604_800), ("2w", 1_209_600),
        ("1h30m", 5_400), ("1.5h", 5_400), (" 2M ", 120),
    ])
    func reads(text: String, seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test("anything else is not a duration", arguments: ["", "0", "-5", "m", "5x", "1h30", "h1", "1e999", "nan"])
    func refuses(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
