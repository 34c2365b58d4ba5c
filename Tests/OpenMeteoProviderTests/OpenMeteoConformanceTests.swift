import Domain
import Foundation
import OpenMeteoProvider
import ProviderTesting
import Testing

/// The contract every provider honours, checked by ProviderTesting's conformance kit. Open-Meteo takes no key,
/// so `secrecy` (which needs a credential the options carry) does not apply; every other check runs.
@Suite("Open-Meteo provider conformance", .serialized)
struct OpenMeteoConformanceTests {
    static let subject = ConformanceSubject.http(
        "open-meteo", provider: OpenMeteoProvider(), kind: .weather, secrets: [],
        options: { baseURL in
            ["cities": [["lat": 52.2, "lon": 6.9], ["lat": 44.34, "lon": 10.99], ["lat": 37.57, "lon": 126.98]],
             "baseURL": .string(baseURL.absoluteString), "geocodingBaseURL": .string(baseURL.absoluteString)]
        },
        success: { try Fixture.forecast.response() },
        invalidOptions: [
            .init("a longitude out of range", options: ["cities": [["lat": 10, "lon": 200]]], path: "sources[0].options.cities[0].lon"),
            .init("an unknown unit system", options: ["cities": ["Enschede"], "units": "kelvin"], path: "sources[0].options.units"),
            .init("a geocoding URL with a query", options: ["cities": ["Enschede"], "geocodingBaseURL": "https://g.example/?x=1"],
                  path: "sources[0].options.geocodingBaseURL"),
        ])

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases.filter { $0 != .secrecy })
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test("no secrets: there is no credential option to leak")
    func noCredential() {
        #expect(!OpenMeteoProvider().options.contains { ["apiKey", "token", "key"].contains($0.name) })
    }
}
