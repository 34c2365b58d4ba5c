import Domain
import Foundation
import HTTPClient
import ProviderKit

/// `"provider": "openweather"`: current weather for many cities at once from OpenWeather's Current Weather
/// API 2.5 (`GET {baseURL}/data/2.5/weather?q=CITY&appid=KEY&units=UNITS[&lang=LANG]`).
///
///     { "id": "weather", "provider": "openweather",
///       "options": { "cities": ["Seoul", { "id": 2643743 }, { "lat": 44.34, "lon": 10.99 }],
///                    "units": "metric", "apiKey": "${OPENWEATHER_API_KEY}" } }
///
/// Cities are fetched concurrently (the source's `concurrency`) and reported in manifest order. Partial
/// failure follows the shared policy (`ItemReceiver.finish(collecting:)`): a city that fails (404, say) is a
/// warning naming it and the source stays `ok` with the other cities; the source is `error` only when
/// every city failed.
///
/// Items: `kind: "weather"`, `id` = the city as asked for, `title` = the place's name, `subtitle` like
/// `Clouds, 21.3 °C`, `date` = observation time. `fields` keys (absent when the service omits them):
/// `condition`, `description`, `units`, `temperature`, `temperatureUnit`, `feelsLike`, `temperatureMin`,
/// `temperatureMax`, `humidity` (%), `pressure`, `seaLevelPressure`, `groundLevelPressure` (hPa), `windSpeed`,
/// `windGust`, `windSpeedUnit`, `windDirection` (°), `cloudiness` (%), `visibility` (m), `rainLastHour`,
/// `snowLastHour` (mm), `country`, `utcOffsetSeconds`. Numbers are kept as sent (`1020.95`, never `1021`).
public struct OpenWeatherProvider: Provider {
    public static let defaultBaseURL = URL(string: "https://api.openweathermap.org")!

    public init() {}

    public var name: String { "openweather" }

    public var summary: String { "Current weather for many cities at once (OpenWeather, API key required)" }

    public var options: [OptionSpec] {
        [
            OptionSpec("cities", "array of city names, { \"id\": N } or { \"lat\": N, \"lon\": N }", required: true,
                       shape: CityOption.listShape,
                       help: "The places to report, in output order."),
            OptionSpec("apiKey", "string", required: true, secret: true,
                       help: "OpenWeather API key; normally \"${OPENWEATHER_API_KEY}\". Never printed."),
            OptionSpec("units", "standard|metric|imperial", default: UnitSystem.metric.rawValue,
                       help: "Kelvin and m/s, °C and m/s, or °F and mph."),
            OptionSpec("lang", "string", help: "Language of the condition descriptions (\"de\", \"ko\", …)."),
        ] + HTTPSourceOptions.specs(defaultBaseURL: Self.defaultBaseURL)
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let cities = reader.require("cities", as: [CityOption].self)
        if let cities, cities.isEmpty { reader.problem("cities", "name at least one city") }
        let apiKey = reader.require("apiKey", as: String.self)
        if let apiKey, apiKey.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem("apiKey", "is empty; set it, normally to \"${OPENWEATHER_API_KEY}\"")
        }
        let units = reader.value("units", as: UnitSystem.self) ?? .metric
        let language = reader.value("lang", as: String.self)
        if let language, language.isEmpty { reader.problem("lang", "is empty; leave it out for English") }
        let http = HTTPSourceOptions.read(
            reader, defaultBaseURL: Self.defaultBaseURL, credentialOption: "apiKey", hasCredential: true)
        try reader.finish()
        guard let cities, let apiKey else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }

        let client = configuration.httpClient(http.clientConfiguration(for: configuration))
        let repository = OpenWeatherRepository(
            client: client, baseURL: http.baseURL, apiKey: apiKey, units: units, language: language)
        return FetchWeatherUseCase(repository: repository, locations: cities.map(\.location))
    }
}
