import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "open-meteo"`: current weather for many places at once from Open-Meteo (no API key): the
/// forecast API's `current` conditions (`GET {baseURL}/v1/forecast?latitude=…&longitude=…&current=…`), places
/// given by name or id found through its geocoding API (`GET {geocodingBaseURL}/v1/search?name=…`, `/v1/get?id=…`).
///
///     { "id": "weather", "provider": "open-meteo",
///       "options": { "cities": ["Enschede", "Zocca,IT", { "id": 2756071 }, { "lat": 44.34, "lon": 10.99 }],
///                    "units": "metric" } }
///
/// The `cities` and `units` options are OpenWeather's, so a manifest moves between the two by changing the
/// provider's name (and dropping `apiKey` and `lang`). Places are fetched concurrently (the source's
/// `concurrency`) and reported in manifest order; a place that fails is a warning naming it, the source fails
/// only when all did.
///
/// Items: the `weather` items of OpenWeather, with the same `id` (the place as asked for), `title`, `subtitle`
/// and `fields` keys wherever Open-Meteo reports the value: `condition` and `description` from the WMO weather
/// code, `temperature`, `feelsLike`, `humidity`, `pressure` and `seaLevelPressure` (mean sea level),
/// `groundLevelPressure` (surface), `windSpeed`, `windGust`, `windDirection`, `cloudiness`, `visibility`,
/// `utcOffsetSeconds`, `country` (places found by name or id). Open-Meteo has no daily min/max in its current
/// conditions and sums precipitation over 15 minutes rather than the last hour, so `temperatureMin`,
/// `temperatureMax`, `rainLastHour` and `snowLastHour` are absent. `units: "standard"` (kelvin) is computed
/// from °C, which is all Open-Meteo offers besides °F.
public struct OpenMeteoProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://api.open-meteo.com")!
    public static let defaultGeocodingBaseURL = URL(string: "https://geocoding-api.open-meteo.com")!

    public init() {}

    public var name: String { "open-meteo" }

    public var summary: String { "Current weather for many places at once (Open-Meteo, no API key)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("cities", "array of place names (\"Zocca,IT\"), { \"id\": N } or { \"lat\": N, \"lon\": N }",
                       required: true, shape: CityOption.listShape,
                       help: "The places to report, in output order; names and ids are looked up "
                           + "through the geocoding API (ids are GeoNames ids), coordinates are used as given."),
            OptionSpec("units", "standard|metric|imperial", default: UnitSystem.metric.rawValue,
                       help: "Kelvin and m/s, °C and m/s, or °F and mph."),
            OptionSpec("geocodingBaseURL", "string (URL)", default: Self.defaultGeocodingBaseURL.absoluteString,
                       help: "Where the geocoding API lives (a self-hosted Open-Meteo, a test server)."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let cities = reader.require("cities", as: [CityOption].self)
        if let cities, cities.isEmpty { reader.problem("cities", "name at least one place") }
        let units = reader.value("units", as: UnitSystem.self) ?? .metric
        var geocodingBaseURL = Self.defaultGeocodingBaseURL
        if let text = reader.value("geocodingBaseURL", as: String.self) {
            if let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
               url.host?.isEmpty == false, url.query == nil {
                geocodingBaseURL = url
            } else {
                reader.problem("geocodingBaseURL", "expected an http:// or https:// URL with a host and no query, found '\(text)'")
            }
        }
        let http = HTTPSourceOptions.read(reader, defaultBaseURL: Self.defaultBaseURL)
        if http.insecureSkipVerify, !Redactor.isLoopback(host: geocodingBaseURL.host) {
            reader.problem("insecureSkipVerify", "applies to loopback hosts only, not \(geocodingBaseURL.host ?? "?") "
                + "(geocodingBaseURL); to trust a private CA set \"caFile\" instead")
        }
        try reader.finish()
        guard let cities else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = OpenMeteoRepository(
            client: client, baseURL: http.baseURL, geocodingBaseURL: geocodingBaseURL, units: units)
        return FetchWeatherUseCase(repository: repository, locations: cities.map(\.location))
    }
}
