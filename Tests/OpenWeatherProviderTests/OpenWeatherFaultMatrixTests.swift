import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy OpenWeather source in the same run.
@Suite("OpenWeather fault matrix", .serialized)
struct OpenWeatherFaultMatrixTests {
    @Test("each fault is reported with its kind, the healthy source stays intact and no key is printed",
          arguments: [LiveTransport.urlSession, .asyncHTTPClient])
    func faultMatrix(transport: LiveTransport) async throws {
        let results = try await ProviderConformance.faultMatrix(OpenWeatherConformanceTests.subject, transport: transport)
        print(ProviderConformance.faultMatrixTable([(transport.rowName("openweather"), results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
