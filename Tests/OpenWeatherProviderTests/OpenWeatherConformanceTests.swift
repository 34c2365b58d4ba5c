import Domain
import Foundation
import OpenWeatherProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit.
@Suite("OpenWeather provider conformance", .serialized)
struct OpenWeatherConformanceTests {
    static let subject = ConformanceSubject.http(
        "openweather", provider: OpenWeatherProvider(), kind: .weather, secrets: [apiKey],
        options: { baseURL in
            ["cities": ["Zocca", "Modena", "Bologna"], "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.zocca.response() },
        invalidOptions: [
            .init("a latitude out of range", options: ["cities": [["lat": 100, "lon": 10]], "apiKey": "k"],
                  path: "sources[0].options.cities[0].lat"),
            .init("an unknown unit system", options: ["cities": ["Seoul"], "apiKey": "k", "units": "kelvin"],
                  path: "sources[0].options.units"),
        ])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
