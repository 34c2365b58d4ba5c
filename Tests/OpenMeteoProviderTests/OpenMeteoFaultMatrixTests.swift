import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy Open-Meteo source in the same run.
@Suite("Open-Meteo fault matrix", .serialized)
struct OpenMeteoFaultMatrixTests {
    @Test("each fault is reported with its kind and the healthy source stays intact",
          arguments: [LiveTransport.urlSession, .asyncHTTPClient])
    func faultMatrix(transport: LiveTransport) async throws {
        let results = try await ProviderConformance.faultMatrix(OpenMeteoConformanceTests.subject, transport: transport)
        print(ProviderConformance.faultMatrixTable([(transport.rowName("open-meteo"), results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
