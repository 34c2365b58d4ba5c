import ProviderTesting
import Testing

/// Every HTTP fault, one at a time, beside a healthy OpenWeather source in the same run.
@Suite("OpenWeather fault matrix", .serialized)
struct OpenWeatherFaultMatrixTests {
    @Test("each fault is reported with its kind, the healthy source stays intact and no key is printed")
    func faultMatrix() async throws {
        let results = try await ProviderConformance.faultMatrix(OpenWeatherConformanceTests.subject)
        print(ProviderConformance.faultMatrixTable([("openweather", results)]))
        let violations = results.flatMap(\.violations)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
