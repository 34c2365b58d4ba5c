import Domain
import HTMLProvider
import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy html source in the same run.
@Suite("HTML fault matrix", .serialized)
struct HTMLFaultMatrixTests {
    @Test("each HTTP fault is reported with its kind, the healthy source stays intact and nothing secret is printed")
    func faultMatrix() async throws {
        // Its "malformed" and "html" cells answer with text/html bodies: pages to this provider, whose items match
        // nothing, which warns (HTMLProviderPageTests.noMatchWarns) instead of failing; every other cell applies.
        let cells = FaultCell.allCases.filter { $0 != .malformedBody && $0 != .wrongContentType }
        let results = try await ProviderConformance.faultMatrix(HTMLConformanceTests.subject, cells: cells)
        print(ProviderConformance.faultMatrixTable([("html", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
