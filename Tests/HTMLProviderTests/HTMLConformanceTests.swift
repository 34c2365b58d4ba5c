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
             "items": "//map[@id='comicmap']/area", "fields": ["title": "@alt", "link": "@href"]]
        },
        success: { try Fixture.response("huginn-xkcd.html") },
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

    @Test("each HTTP fault is reported with its kind, the healthy source stays intact and nothing secret is printed",
          arguments: [LiveTransport.urlSession, .asyncHTTPClient])
    func faultMatrix(transport: LiveTransport) async throws {
        // Its "malformed" and "html" cells answer with text/html bodies: pages to this provider, whose items match
        // nothing, which warns (HTMLProviderPageTests.noMatchWarns) instead of failing; every other cell applies.
        let cells = FaultCell.allCases.filter { $0 != .malformedBody && $0 != .wrongContentType }
        let results = try await ProviderConformance.faultMatrix(Self.subject, cells: cells, transport: transport)
        print(ProviderConformance.faultMatrixTable([(transport.rowName("html"), results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
