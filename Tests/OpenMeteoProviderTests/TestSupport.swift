import Domain
import Foundation
import OpenMeteoProvider
import ProviderKit
import ProviderTesting

let forecastPath = "/v1/forecast"
let searchPath = "/v1/search"
let placePath = "/v1/get"

enum Fixture: String {
    case forecast = "frenck_forecast_current_enschede_2026-10-03.json"
    case forecastWithoutCurrent = "frenck_forecast_minimal.json"
    case geocoding = "frenck_geocoding_enschede.json"
    case geocodingEmpty = "frenck_geocoding_empty.json"
    case place = "frenck_geocoding_by_id_enschede.json"
    case error400 = "written_error_400_documented.json"

    func response(status: Int = 200) throws -> FixtureResponse {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(rawValue)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try .file(url, status: status)
    }
}

/// Options pointing both APIs at the loopback server.
func options(server: FixtureServer, cities: [JSONValue], extra: JSONObject = [:]) -> JSONValue {
    var options: JSONObject = [
        "cities": .array(cities), "baseURL": .string(server.baseURL.absoluteString),
        "geocodingBaseURL": .string(server.baseURL.absoluteString),
    ]
    options.merge(extra) { $1 }
    return .object(options)
}

func run(_ options: JSONValue, concurrency: Int = 4) async throws -> SourceReport {
    let source = try OpenMeteoProvider().makeSource(.testing(id: "weather", options: options, concurrency: concurrency))
    return await SourceRunner.run(source, id: "weather", provider: "open-meteo", concurrency: concurrency)
}
