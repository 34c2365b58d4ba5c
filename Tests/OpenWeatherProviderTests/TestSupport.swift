import Domain
import Foundation
import Logging
import OpenWeatherProvider
import ProviderKit
import ProviderTesting

let apiKey = "owKEY5f3a9c0d1e2b4a6c8e0f1a2b3c4d5e6f"
let weatherPath = "/data/2.5/weather"

enum Fixture: String {
    case zocca = "success_zocca_docs_example_standard_units_pyopenweathermap.json"
    case london2013 = "success_london_2013_pyowm_OBSERVATION_JSON.json"
    case invalidKey = "error_401_invalid_api_key_observed_wego_issue151_2021.json"
    case cityNotFound = "error_404_city_not_found_observed.json"
    case legacyNotFound = "error_404_legacy_pyowm_OBSERVATION_NOT_FOUND_JSON.json"

    var url: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "Fixtures/\(rawValue)", withExtension: nil) else {
                throw CocoaError(.fileNoSuchFile)
            }
            return url
        }
    }

    func response(status: Int = 200, headers: [(name: String, value: String)] = []) throws -> FixtureResponse {
        try .file(url, status: status, headers: headers)
    }
}

/// Builds the source as `aggregate` would from a manifest entry pointing at the loopback server.
func makeSource(
    server: FixtureServer, cities: [JSONValue], units: String? = nil, extra: JSONObject = [:],
    timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) throws -> any ItemSource {
    var options: JSONObject = [
        "cities": .array(cities), "apiKey": .string(apiKey), "baseURL": .string(server.baseURL.absoluteString),
    ]
    if let units { options["units"] = .string(units) }
    options.merge(extra) { $1 }
    return try OpenWeatherProvider().makeSource(.testing(
        id: "weather", options: .object(options), timeoutSeconds: timeoutSeconds, concurrency: concurrency,
        logger: logger))
}

func run(_ source: any ItemSource, timeoutSeconds: Double = SourceRunner.roomyTimeout, concurrency: Int = 4) async -> SourceReport {
    await SourceRunner.run(source, id: "weather", provider: "openweather", timeoutSeconds: timeoutSeconds, concurrency: concurrency)
}

func elapsed(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
