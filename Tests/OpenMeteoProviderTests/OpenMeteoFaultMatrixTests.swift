import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy Open-Meteo source in the same run.
@Suite("Open-Meteo fault matrix", .serialized)
struct OpenMeteoFaultMatrixTests {
    @Test("each fault is reported with its kind and the healthy source stays intact")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(OpenMeteoConformanceTests.subject)
        print(ProviderConformance.faultMatrixTable([("open-meteo", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
