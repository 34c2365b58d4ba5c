import Domain
import FeedParsing
import Foundation
import ProviderTesting
import Testing

/// XPath expressions that compile but that libxml2 cannot evaluate are errors that say so, on real saved pages
/// (Fixtures/SOURCES.md): never "matched nothing" or an item quietly left without its field.
@Suite("XPath evaluation errors on real pages")
struct HTMLProviderXPathErrorTests {
    @Test("an items expression libxml2 cannot evaluate on the page fails the source, naming the option, the expression and the reason")
    func itemsFailsTheSource() async throws {
        // Validation passes (the empty page has no h3 for the predicate to run on); the release notes have 85.
        let items = "//h3[substring-before(.)]"
        #expect(pages.problems(["urls": ["https://example.org/"], "items": .string(items)]).isEmpty)
        let (report, base) = try await runPage("libxslt-news.html", options: ["items": .string(items)])
        #expect(report.status == .error)
        #expect(report.items.isEmpty)
        #expect(report.error == SourceError(
            .configuration, "\(base)/page: items: the XPath '\(items)' cannot be evaluated: Invalid number of arguments"))
        #expect(!report.warnings.contains { $0.contains("matched nothing") })
    }

    @Test("a field that fails on every item is one warning naming the field and the reason, not one per item")
    func fieldWarnsOnce() async throws {
        let title = ".//a[substring-before(.)]"
        #expect(pages.problems(["urls": ["https://example.org/"], "items": "//li", "fields": ["title": .string(title)]]).isEmpty)
        let (report, base) = try await runPage("huginn-urlTest.html", options: ["items": "//li", "fields": ["title": .string(title)]])
        #expect(report.status == .ok)
        #expect(report.items.count == 7)  // each still has its link
        #expect(report.items.allSatisfy { $0.url != nil })
        #expect(report.warnings == [
            "\(base)/page: fields.title: the XPath '\(title)' cannot be evaluated: Invalid number of arguments "
                + "on 7 of 7 items; they have no title from it",
        ])
    }

    @Test("a field that works stays quiet beside one that fails")
    func onlyTheFailingField() async throws {
        let date = ".//a[number(.) = substring(.)]"
        let (report, base) = try await runPage(
            "huginn-urlTest.html", options: ["items": "//li", "fields": ["title": ".//a", "date": .string(date)]])
        #expect(report.items.map(\.title).first == "google")
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("\(base)/page: fields.date: the XPath '\(date)' cannot be evaluated: Invalid number of arguments on 7 of 7") == true)
    }

    /// A caller of the parser (no manifest validation in front of it) hears libxml2's reason too.
    @Test("the parser alone: an unregistered function and a value that is no node set, each named", arguments: [
        ("//h3[starts-wth(., 'v')]",
         "cannot be evaluated: Unregistered function starts-wth() (no such XPath 1.0 function)"),
        ("count(//h3)", "gives a number, not a node set: items must select nodes"),
        ("string(//h3)", "gives a string, not a node set: items must select nodes"),
    ])
    func parserAlone(items: String, reason: String) throws {
        let data = try Data(contentsOf: pages.fixture("libxslt-news.html"))
        let error = #expect(throws: SourceError.self) {
            try HTMLPageParser.parse(
                data, charset: nil, url: URL(string: "https://example.org/news")!, extraction: HTMLExtraction(items: items),
                maxItems: 50)
        }
        #expect(error == SourceError(.configuration, "items: the XPath '\(items)' \(reason)"))
    }
}
