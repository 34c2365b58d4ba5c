import Domain
import Foundation
import HTMLProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit and fault matrix.
@Suite("HTML provider conformance", .serialized)
struct HTMLConformanceTests {
    /// A page URL may carry a credential in its query; it must never be printed.
    static let pageToken = "pageTOKEN0a1b2c3d4e5f66778899"

    static let subject = ConformanceSubject.http(
        "html", provider: HTMLProvider(), kind: .entry, secrets: [pageToken],
        options: { baseURL in
            ["urls": .array(["a", "b", "c"].map { .string(baseURL.absoluteString + "/\($0).html?token=\(pageToken)") }),
             // Ids from the page, not from links resolved against the server's changing port.
             "items": "//map[@id='comicmap']/area", "fields": ["title": "@alt", "link": "@href", "id": "concat('xkcd', @href)"]]
        },
        success: { try pages.response("huginn-xkcd.html") },
        invalidOptions: [
            .init("no items XPath", options: ["urls": ["https://example.org/"]], path: "sources[0].options.items"),
            .init("a bad items XPath", options: ["urls": ["https://example.org/"], "items": "//["], path: "sources[0].options.items"),
        ],
        // An HTML page where JSON was expected is a page to this provider: read, and its items matching nothing warn.
        warnedFaults: [.htmlInsteadOfJSON])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
