import Foundation
import Testing
@testable import FeedParsing

@Suite("Feed dates in other languages")
struct LocalizedDateTests {
    @Test("RFC 822 dates with day and month names in the languages feeds use", arguments: [
        // Portuguese (the news feed that came out undated), with and without the weekday, full month names
        ("Seg, 24 Set 2018 19:42:40 -0300", "2018-09-24T22:42:40Z"),
        ("seg, 24 set 2018 19:42:40 -0300", "2018-09-24T22:42:40Z"),
        ("Sáb, 01 Dez 2018 08:00:00 -0200", "2018-12-01T10:00:00Z"),
        ("24 de setembro de 2018 19:42:40 -0300", "2018-09-24T22:42:40Z"),
        ("Terça-feira, 05 Fev 2019 10:00:00 GMT", "2019-02-05T10:00:00Z"),
        // Spanish
        ("Mié, 06 Feb 2019 10:00:00 +0100", "2019-02-06T09:00:00Z"),
        ("lun, 07 ene 2019 10:00:00 +0100", "2019-01-07T09:00:00Z"),
        ("Mar, 05 Mar 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("5 de diciembre de 2019 10:00:00 GMT", "2019-12-05T10:00:00Z"),
        // French, accents and trailing dots
        ("mar., 5 févr. 2019 10:00:00 +0100", "2019-02-05T09:00:00Z"),
        ("Mar, 05 Fev 2019 10:00:00 +0100", "2019-02-05T09:00:00Z"),
        ("jeu., 15 août 2019 08:30:00 +0200", "2019-08-15T06:30:00Z"),
        ("15 decembre 2019 08:30 +0100", "2019-12-15T07:30:00Z"),
        // German
        ("Di, 05 Mär 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("Di., 5. März 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("Mo, 02 Dez 2019 10:00:00 GMT", "2019-12-02T10:00:00Z"),
        ("Fr, 11 Okt 2019 10:00:00 +0200", "2019-10-11T08:00:00Z"),
        // Italian
        ("Gio, 10 Gen 2019 10:00:00 +0100", "2019-01-10T09:00:00Z"),
        ("ven, 14 giu 2019 10:00:00 +0200", "2019-06-14T08:00:00Z"),
        ("lunedì, 4 novembre 2019 10:00:00 +0100", "2019-11-04T09:00:00Z"),
        // Dutch
        ("Di, 05 mrt 2019 10:00:00 +0100", "2019-03-05T09:00:00Z"),
        ("wo, 1 mei 2019 10:00:00 +0200", "2019-05-01T08:00:00Z"),
        ("zo, 13 okt 2019 10:00:00 +0200", "2019-10-13T08:00:00Z"),
        // Swedish, Polish
        ("tis, 1 okt 2019 10:00:00 +0200", "2019-10-01T08:00:00Z"),
        ("pon, 4 lis 2019 10:00:00 +0100", "2019-11-04T09:00:00Z"),
    ])
    func localized(text: String, expected: String) {
        #expect(FeedDateParser.date(from: text) == Date(iso: expected), "\(text)")
    }

    @Test("not a date in any language stays nil (the feed parser keeps the raw text)", arguments: [
        "Seg, 24 Xyz 2018 19:42:40 -0300", "soon", "24 de nada", "",
    ])
    func unreadable(text: String) {
        #expect(FeedDateParser.date(from: text) == nil)
    }

    @Test("an entry whose date cannot be read keeps the text in publishedRaw / updatedRaw")
    func rawKept() throws {
        let feed = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            <item><title>A</title><guid>a</guid><pubDate>le jour d'après</pubDate></item>
            <item><title>B</title><guid>b</guid><pubDate>Seg, 24 Set 2018 19:42:40 -0300</pubDate></item>
            </channel></rss>
            """
        let result = try FeedParser.parse(Data(feed.utf8))
        #expect(result.entries[0].published == nil)
        #expect(result.entries[0].publishedRaw == "le jour d'après")
        #expect(result.entries[1].published == Date(iso: "2018-09-24T22:42:40Z"))
        #expect(result.entries[1].publishedRaw == nil)
    }
}
