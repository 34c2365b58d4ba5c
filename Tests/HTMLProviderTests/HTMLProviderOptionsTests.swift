import Domain
import Foundation
import ProviderKit
import Testing

@Suite("HTML provider options")
struct HTMLProviderOptionsTests {
    @Test("a bad XPath is a manifest error naming the option and libxml2's reason", arguments: [
        ("items", JSONObject(["urls": ["https://example.org/"], "items": "//div[@class='x'"])),
        ("fields.title", JSONObject(["urls": ["https://example.org/"], "items": "//li", "fields": ["title": ".//h2)"]])),
        ("fields.date", JSONObject(["urls": ["https://example.org/"], "items": "//li", "fields": ["date": "@"]])),
    ])
    func badXPath(option: String, options: JSONObject) {
        let found = pages.problems(options)
        #expect(found.count == 1, "\(found)")
        let problem = found.first ?? ""
        #expect(problem.hasPrefix("sources[0].options.\(option): not a valid XPath 1.0 expression: "), "\(problem)")
        // libxml2's own words, and where it stopped.
        #expect(problem.contains("Invalid") || problem.contains("Unfinished") || problem.contains("expected"), "\(problem)")
        #expect(problem.contains("(at character "), "\(problem)")
    }

    @Test("an expression that compiles but cannot be evaluated is a manifest error with libxml2's reason", arguments: [
        ("items", "//div[starts-wth(@id, 'post')]",
         "cannot be evaluated: Unregistered function starts-wth() (no such XPath 1.0 function)"),
        ("fields.title", "normalise-space(.//h2) or sbstring(., 1)",
         "cannot be evaluated: Unregistered function normalise-space(), sbstring() (no such XPath 1.0 function)"),
        ("fields.date", "substring-after(.)", "cannot be evaluated: Invalid number of arguments"),
        ("items", "//li | 1", "cannot be evaluated: Invalid type"),
        ("items", "count(//li)", "gives a number, not a node set: items must select nodes"),
        ("items", "normalize-space(//h1)", "gives a string, not a node set: items must select nodes"),
    ])
    func unevaluable(option: String, expression: String, reason: String) {
        var options: JSONObject = ["urls": ["https://example.org/"], "items": "//li"]
        if option == "items" {
            options["items"] = .string(expression)
        } else {
            options["fields"] = [String(option.dropFirst("fields.".count)): .string(expression)]
        }
        #expect(pages.problems(options) == ["sources[0].options.\(option): \(reason) in '\(expression)'"])
    }

    @Test("function names inside strings, attribute and variable names and node tests are no calls")
    func notCalls() {
        #expect(pages.problems([
            "urls": ["https://example.org/"], "items": "//li[@data-x = 'starts-wth(1)'][text()][not(comment())]",
            "fields": ["title": "concat(\"frob(\", .//h2/text(), ')')", "link": "child::a/@href", "date": "string(@mod) = 'x'"],
        ]).isEmpty)
    }

    @Test("items is required, fields are checked by name, and every problem is listed at once")
    func everyProblem() {
        let found = pages.problems(["paths": [], "urls": ["ftp://example.org/"], "fields": ["headline": ".//h2", "link": ""],
                              "maxItemsPerPage": 0, "dateFormat": " "])
        #expect(found.contains("sources[0].options.items: required option is missing"), "\(found)")
        #expect(found.contains { $0.hasPrefix("sources[0].options.fields.headline: unknown field; expected one of title, link, date") })
        #expect(found.contains("sources[0].options.fields.link: an XPath expression cannot be empty"))
        #expect(found.contains("sources[0].options.urls[0]: expected an http:// or https:// URL, found 'ftp://example.org/'"))
        #expect(found.contains("sources[0].options.maxItemsPerPage: must be at least 1, found 0"))
        #expect(found.contains("sources[0].options.dateFormat: a date pattern cannot be empty"))
    }

    @Test("no pages named is refused as the feed provider refuses no feeds")
    func noLocations() {
        #expect(pages.problems(["items": "//li"]) == ["sources[0].options: name at least one page in 'urls' or 'paths'"])
    }

    @Test("a valid source has no problems, XPath functions and unions included")
    func valid() {
        #expect(pages.problems([
            "urls": ["https://example.org/news"], "items": "//article | //div[contains(@class, 'post')]",
            "fields": ["title": "normalize-space(.//h2)", "link": ".//a/@href", "date": ".//time/@datetime",
                       "summary": ".//p[1]", "image": ".//img/@src", "id": "@data-id"],
            "dateFormat": "dd.MM.yyyy",
        ]).isEmpty)
    }
}
