import Testing
@testable import FeedParsing

@Suite("Skipping bytes eight at a time")
struct ByteScanTests {
    /// What `firstFlagged` must agree with: one table look per byte.
    private func naive(_ bytes: [UInt8], from start: Int, mask: UInt8) -> Int {
        var index = start
        while index < bytes.count, MarkupRepair.byteClasses[Int(bytes[index])] & mask == 0 { index += 1 }
        return index
    }

    @Test("finds what a byte-by-byte scan finds, from every start, in content and in text runs")
    func agreesWithTheTable() {
        // Flagged bytes, bytes that only look like them to the word test (tab, newline, CR), and plain ones,
        // including UTF-8 sequences with bytes above 0x7F.
        let alphabet: [[UInt8]] = [
            [0x26], [0x3C], [0x5D], [0x01], [0x1F], [0x09], [0x0A], [0x0D], [0x61], [0x20], [0xC3, 0xA9], [0x7F],
        ]
        var generator = SystemRandomNumberGenerator()
        var mismatches: [([UInt8], Int)] = []
        for _ in 0..<300 {
            var bytes: [UInt8] = []
            let plainRun = Int.random(in: 0...20, using: &generator)
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                bytes += Array(repeating: 0x61, count: Int.random(in: 0...plainRun, using: &generator))
                bytes += alphabet.randomElement(using: &generator)!
            }
            MarkupRepair.byteClasses.withUnsafeBufferPointer { classes in
                bytes.withUnsafeBufferPointer { input in
                    for start in 0...bytes.count {
                        let content = ByteScan.firstFlagged(
                            input, from: start, mask: MarkupRepair.inContent, classes: classes, first: 0x26, second: 0x3C)
                        let textRun = ByteScan.firstFlagged(
                            input, from: start, mask: MarkupRepair.inTextRun, classes: classes, first: 0x26, second: 0x5D)
                        if content != naive(bytes, from: start, mask: MarkupRepair.inContent)
                            || textRun != naive(bytes, from: start, mask: MarkupRepair.inTextRun)
                        {
                            mismatches.append((bytes, start))
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "first: \(mismatches.first.map { "\($0.0) from \($0.1)" } ?? "")")
    }

    @Test("memchr's answer within the range given, and nil past it")
    func firstByte() {
        let bytes = Array("ab<cd<".utf8)
        bytes.withUnsafeBufferPointer { input in
            #expect(ByteScan.first(0x3C, in: input, from: 0, to: input.count) == 2)
            #expect(ByteScan.first(0x3C, in: input, from: 3, to: input.count) == 5)
            #expect(ByteScan.first(0x3C, in: input, from: 3, to: 5) == nil)
            #expect(ByteScan.first(0x3C, in: input, from: 4, to: 4) == nil)
        }
    }
}
