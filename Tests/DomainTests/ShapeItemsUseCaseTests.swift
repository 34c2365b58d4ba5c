import Domain
import Foundation
import Testing

private func entry(
    _ id: String, _ title: String? = nil, url: String? = nil, at seconds: Double? = nil, fields: JSONObject = [:],
    subtitle: String? = nil
) -> Item {
    Item(kind: .entry, id: id, title: title ?? id, subtitle: subtitle, url: url.flatMap(URL.init(string:)),
         date: seconds.map(Date.init(timeIntervalSince1970:)), fields: fields)
}

private func report(_ sources: [(String, [Item])]) -> AggregateReport {
    AggregateReport(generatedAt: Date(timeIntervalSince1970: 0), sources: sources.map { id, items in
        SourceReport(descriptor: descriptor(id), status: .ok, items: items)
    })
}

private func output(_ report: AggregateReport) -> [String] {
    report.itemsInOutputOrder().map { "\($0.source)/\($0.item.id)" }
}

@Suite("Shaping a run's items: --since, --sort date, --dedupe")
struct ShapeItemsUseCaseTests {
    @Test("date: newest first across every source; ties keep manifest then source order; undated last")
    func globalDateSort() {
        let run = report([
            ("b", [entry("old", at: 10), entry("undated-1"), entry("new", at: 30), entry("tie-b1", at: 20)]),
            ("a", [entry("x", at: 25), entry("tie-a", at: 20), entry("undated-2")]),
        ])
        let shaped = ShapeItemsUseCase(ItemShaping(order: .date)).execute(run)
        #expect(output(shaped) == ["b/new", "a/x", "b/tie-b1", "a/tie-a", "b/old", "b/undated-1", "a/undated-2"])
        #expect(shaped.sources.map(\.id) == ["b", "a"])
        #expect(shaped.sources[0].items.map(\.id) == ["new", "tie-b1", "old", "undated-1"])
        #expect(output(ShapeItemsUseCase(ItemShaping()).execute(run))
            == ["b/old", "b/undated-1", "b/new", "b/tie-b1", "a/x", "a/tie-a", "a/undated-2"])
    }

    @Test("--limit counts per source in the merged order")
    func limitInMergedOrder() {
        let shaped = ShapeItemsUseCase(ItemShaping(order: .date)).execute(report([
            ("a", [entry("a1", at: 1), entry("a2", at: 2), entry("a3", at: 3)]), ("b", [entry("b1", at: 2.5)]),
        ]))
        #expect(shaped.itemsInOutputOrder(limit: 1).map(\.item.id) == ["a3", "b1"])
    }

    @Test("since: only items dated after it; undated items are left out")
    func since() {
        let shaped = ShapeItemsUseCase(ItemShaping(since: Date(timeIntervalSince1970: 20))).execute(report([
            ("a", [entry("before", at: 10), entry("equal", at: 20), entry("after", at: 21), entry("undated")]),
        ]))
        #expect(output(shaped) == ["a/after"])
    }

    @Test("url: the same story with tracking parameters, fragment and trailing slash appears once, the fullest copy kept")
    func dedupeByURL() {
        let shaped = ShapeItemsUseCase(ItemShaping(dedupe: .url)).execute(report([
            ("news", [entry("n1", url: "https://example.com/story/?utm_source=rss&utm_medium=feed#comments"),
                      entry("n2", url: "https://example.com/other")]),
            ("blog", [entry("b1", url: "http://EXAMPLE.com/story?fbclid=abc", at: 5, fields: ["author": "Ann"])]),
            ("wire", [entry("w1", url: "https://example.com/story")]),
        ]))
        #expect(output(shaped) == ["news/n2", "blog/b1"])
        #expect(shaped.sources[1].items[0].fields["alsoIn"] == .array(["news", "wire"]))
        #expect(shaped.sources[0].items[0].fields["alsoIn"] == nil)
    }

    @Test("a tie in fields keeps the first copy in output order; a duplicate within one source is dropped without alsoIn")
    func dedupeTies() {
        let shaped = ShapeItemsUseCase(ItemShaping(dedupe: .id)).execute(report([
            ("a", [entry("same"), entry("same"), entry("other")]), ("b", [entry("same")]),
        ]))
        #expect(output(shaped) == ["a/same", "a/other"])
        #expect(shaped.sources[0].items[0].fields["alsoIn"] == .array(["b"]))
    }

    @Test("title: case, accents, punctuation and spacing ignored; items without a key are never duplicates")
    func dedupeByTitle() {
        let shaped = ShapeItemsUseCase(ItemShaping(dedupe: .title)).execute(report([
            ("a", [entry("1", "Café opens — today!"), entry("2", "…")]),
            ("b", [entry("3", "  cafe OPENS today", subtitle: "more"), entry("4", "!!")]),
        ]))
        #expect(output(shaped) == ["a/2", "b/3", "b/4"])
        #expect(shaped.sources[1].items[0].fields["alsoIn"] == .array(["a"]))
    }

    @Test("since, dedupe and the date sort together")
    func together() {
        let shaped = ShapeItemsUseCase(ItemShaping(since: Date(timeIntervalSince1970: 5), order: .date, dedupe: .id))
            .execute(report([("a", [entry("x", at: 10), entry("old", at: 1)]), ("b", [entry("y", at: 20), entry("x", at: 10)])]))
        #expect(output(shaped) == ["b/y", "a/x"])
    }
}

@Suite("Item identity (--dedupe keys)")
struct ItemIdentityTests {
    @Test("canonical URLs", arguments: [
        ("https://Example.com/a/b/?utm_source=x&id=3#top", "example.com/a/b?id=3"),
        ("http://example.com:80/a", "example.com/a"),
        ("https://example.com:8443/a/", "example.com:8443/a"),
        ("https://example.com/?b=2&a=1&gclid=z&utm_campaign=q", "example.com?a=1&b=2"),
        ("https://example.com/path%20x", "example.com/path%20x"),
    ])
    func canonical(_ pair: (String, String)) throws {
        #expect(ItemIdentity.canonicalURL(try #require(URL(string: pair.0))) == pair.1)
    }

    @Test("a URL without a host has no key")
    func noHost() throws {
        #expect(ItemIdentity.canonicalURL(try #require(URL(string: "mailto:someone"))) == nil)
    }

    @Test("normalized titles")
    func titles() {
        #expect(ItemIdentity.normalizedTitle("  Swift 6.1 — Released!") == "swift 6 1 released")
        #expect(ItemIdentity.normalizedTitle("ÉTÉ à Paris") == "ete a paris")
        #expect(ItemIdentity.normalizedTitle("— … —") == nil)
    }

    @Test("an ASCII title, taken by bytes, normalizes as Foundation's folding does")
    func asciiTitles() {
        func reference(_ title: String) -> String? {
            let folded = title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            let words = folded.split { !($0.isLetter || $0.isNumber) }
            return words.isEmpty ? nil : words.joined(separator: " ")
        }
        let printable = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        var random = SystemRandomNumberGenerator()
        let titles = printable + ["", "   ", "Issue number 42", "A-B_C d\te\nF", "\u{1}x\u{7F}Y", "ALL CAPS 123"]
            + (0..<500).map { _ in (0..<Int.random(in: 1...24, using: &random)).map { _ in printable.randomElement(using: &random)! }.joined() }
        for title in titles {
            #expect(ItemIdentity.normalizedTitle(title) == reference(title), "\(title.debugDescription)")
        }
    }
}

@Suite("Streaming item filter (--since and --dedupe while items stream)")
struct StreamingItemFilterTests {
    @Test("the first copy in stream order passes, later ones in any batch do not")
    func firstWins() {
        let filter = StreamingItemFilter(ItemShaping(dedupe: .url))
        #expect(filter.filter([entry("a", url: "https://x.org/1?utm_source=a"), entry("b", url: "https://x.org/2")]).map(\.id) == ["a", "b"])
        #expect(filter.filter([entry("c", url: "https://x.org/1/"), entry("d"), entry("e", url: "https://x.org/3")]).map(\.id) == ["d", "e"])
    }

    @Test("since applies per item")
    func since() {
        let filter = StreamingItemFilter(ItemShaping(since: Date(timeIntervalSince1970: 10)))
        #expect(filter.filter([entry("old", at: 5), entry("new", at: 11), entry("undated")]).map(\.id) == ["new"])
    }

    @Test("memory is bounded: two generations at most, a recent repeat still caught, a long-gone key forgotten")
    func bounded() {
        let filter = StreamingItemFilter(ItemShaping(dedupe: .id), generationSize: 100)
        for batch in 0..<50 {
            _ = filter.filter((0..<20).map { entry("k\(batch * 20 + $0)") })
            #expect(filter.rememberedCount <= 200)
        }
        #expect(filter.filter([entry("k999"), entry("k950")]).isEmpty)  // among the last 100 keys
        #expect(filter.filter([entry("k0")]).map(\.id) == ["k0"])  // 1,000 keys ago: forgotten
    }
}
