import Domain
import Foundation
import ProviderTesting
import Testing

/// Real saved pages (Fixtures/SOURCES.md) served over the loopback server, read into entries by XPath.
@Suite("HTML pages read by XPath through the loopback server")
struct HTMLProviderPageTests {
    /// libxslt's release notes: ISO-8859-1 bytes, served with no charset in HTTP; the page declares it itself.
    static let libxsltNews: JSONObject = [
        "items": "//h3",
        "fields": ["title": "substring-before(., ':')", "date": "substring-after(., ': ')",
                   "summary": "following-sibling::ul[1]"],
        "dateFormat": "MMM dd yyyy",
    ]

    @Test("a Latin-1 page without a charset in HTTP: titles, dates and accented summaries come out right")
    func latin1ReleaseNotes() async throws {
        var options = Self.libxsltNews
        options["maxItemsPerPage"] = 100
        let (report, _) = try await runPage("libxslt-news.html", options: options)
        #expect(report.status == .ok)
        #expect(report.items.prefix(5).map(\.title) == ["v1.1.35", "v1.1.34", "v1.1.33", "1.1.32", "v1.1.31"])
        #expect(report.items.first?.date == ISO8601.date(from: "2022-02-16T00:00:00Z"))
        #expect(report.items.allSatisfy { $0.kind == .entry && $0.subtitle == "News" && $0.date != nil })
        let summary = try #require(report.items.dropFirst().first?.fields["summary"]?.stringValue)
        #expect(summary.contains("Fix typos (Jan Pokorný)"))
        #expect(!summary.contains("\u{FFFD}"))
        #expect(report.items.contains { $0.fields["summary"]?.stringValue?.contains("Jérôme Carretero") == true })
    }

    @Test("the same Latin-1 page with every declaration taken out still keeps its accents (UTF-8, else windows-1252)")
    func latin1Undeclared() async throws {
        let original = [UInt8](try Data(contentsOf: pages.fixture("libxslt-news.html")))
        var bytes = original
        for declaration in [#" encoding="ISO-8859-1""#, "; charset=ISO-8859-1"] {
            let needle = Array(declaration.utf8)
            let start = try #require((0...(bytes.count - needle.count)).first { Array(bytes[$0..<($0 + needle.count)]) == needle })
            bytes.removeSubrange(start..<(start + needle.count))
        }
        #expect(bytes.count == original.count - 42)
        let server = try await FixtureServer.start()
        server.route("/news", FixtureResponse(headers: [("Content-Type", "text/html")], body: Data(bytes)))
        var options = Self.libxsltNews
        options["urls"] = [.string(server.baseURL.absoluteString + "/news")]
        let report = await pages.run(try pages.makeSource(options))
        await server.stop()
        #expect(report.items.dropFirst().first?.fields["summary"]?.stringValue?.contains("Fix typos (Jan Pokorný)") == true)
    }

    @Test("a cap that drops items says so in the report")
    func capWarns() async throws {
        let (report, _) = try await runPage("libxslt-news.html", options: Self.libxsltNews)
        #expect(report.status == .ok)
        #expect(report.items.count == 50)
        #expect(report.warnings.contains { $0.contains("50 of 85 entries kept (maxItemsPerPage); the other 35 are recorded") })
        var options = Self.libxsltNews
        options["maxItemsPerPage"] = 100
        let (all, _) = try await runPage("libxslt-news.html", options: options)
        #expect(all.items.count == 85)
        #expect(all.warnings.isEmpty)
        #expect(all.items.last?.title == "0.0.1")
        #expect(all.items.last?.date == ISO8601.date(from: "2001-01-25T00:00:00Z"))
    }

    @Test("relative links resolve against the page URL; the page's <title> is every item's subtitle")
    func relativeLinks() async throws {
        let (report, base) = try await runPage("huginn-xkcd.html", at: "/1147/", options: [
            "items": "//map[@id='comicmap']/area", "fields": ["title": "@alt", "link": "@href"],
        ])
        #expect(report.status == .ok)
        #expect(report.items.map(\.title) == [
            "Grownups", "Circuit Diagram", "Angular Momentum", "Self-Description", "Alternative Energy Revolution",
        ])
        #expect(report.items.map { $0.url?.absoluteString } == ["150", "730", "162", "688", "556"].map { "\(base)/\($0)/" })
        #expect(report.items.map(\.id) == report.items.map { $0.url!.absoluteString })
        #expect(report.items.allSatisfy { $0.subtitle == "xkcd: Evolving" })
    }

    @Test("image and summary fields: an attribute's text, decoded as the page's XML declaration says")
    func imageAndText() async throws {
        let (report, _) = try await runPage("huginn-xkcd.html", options: [
            "items": "//div[@id='comic']/img",
            "fields": ["title": "@alt", "image": "@src", "summary": "@title", "id": "concat('xkcd-', 1147)"],
        ])
        let item = try #require(report.items.first)
        #expect(item.title == "Evolving")
        #expect(item.id == "xkcd-1147")
        #expect(item.fields["image"]?.stringValue == "http://imgs.xkcd.com/comics/evolving.png")
        #expect(item.fields["summary"]?.stringValue?.hasPrefix("Biologists play reverse Pokémon, trying") == true)
        #expect(item.url == nil)
    }

    @Test("absolute links are kept as written, percent-encoding included")
    func absoluteLinks() async throws {
        let (report, _) = try await runPage("huginn-urlTest.html", options: ["items": "//li/a", "fields": ["title": "."]])
        #expect(report.items.count == 7)
        #expect(report.items.map(\.title).prefix(2) == ["google", "broken"])
        #expect(report.items.first?.url?.absoluteString == "http://google.com")
        #expect(report.items[3].url?.absoluteString
            == "http://ko.wikipedia.org/wiki/%EC%9C%84%ED%82%A4%EB%B0%B1%EA%B3%BC:%EB%8C%80%EB%AC%B8")
        #expect(report.items[1].url?.absoluteString == "https://www.google.ca/search?q=some%20query")
    }

    @Test("links resolve against <base href>, as html-xml-utils' own test expects")
    func baseHref() async throws {
        let (report, base) = try await runPage("html-xml-utils-relurl2.html", at: "/remove/this", options: [
            "items": "//a[@href != '' and not(starts-with(@href, '#'))]", "fields": ["title": ".", "link": "@href"],
        ])
        let root = "http://user:pass@[1234:abcd]:90"
        #expect(report.items.map { $0.url?.absoluteString } == [
            "\(root)/base/link1", "\(root)/link2", "http://other.com/base3/link3", "\(root)/base/query?query2",
            "\(root)/base/segm?query3", "\(root)/link4", "\(root)/link5", "\(root)/base/", "\(root)/base/link7",
            "\(root)/link7",
        ])
        #expect(!report.items.contains { $0.url?.absoluteString.hasPrefix(base) == true })
    }

    @Test("a page where items matches nothing is a warning, not a quiet empty result")
    func noMatchWarns() async throws {
        let (report, base) = try await runPage("huginn-xkcd.html", options: ["items": "//article"])
        #expect(report.items.isEmpty)
        #expect(report.warnings == ["\(base)/page: the items XPath '//article' matched nothing on the page (has the page changed?)"])
    }

    @Test("a local page is read from paths, relative links resolving against the file")
    func localFile() async throws {
        let report = await pages.run(try pages.makeSource([
            "paths": ["huginn-xkcd.html"], "items": "//map[@id='comicmap']/area", "fields": ["title": "@alt", "link": "@href"],
        ]))
        #expect(report.status == .ok)
        #expect(report.items.count == 5)
        #expect(report.items.first?.url?.absoluteString == "file:///150/")
    }

    @Test("a 404 page is a warning naming it while the good page still counts")
    func partialFailure() async throws {
        let server = try await FixtureServer.start()
        server.route("/good", try pages.response("huginn-urlTest.html"))
        let base = server.baseURL.absoluteString
        let report = await pages.run(try pages.makeSource([
            "urls": [.string(base + "/good"), .string(base + "/missing")], "items": "//li/a", "maxRetries": 0,
        ]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 7)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix(base + "/missing: notFound: HTTP 404") == true)
        #expect(server.requests.allSatisfy { $0.header("Accept")?.hasPrefix("text/html") == true })
    }
}
