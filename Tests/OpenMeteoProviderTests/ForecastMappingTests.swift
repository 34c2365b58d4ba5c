import Domain
import Foundation
import ProviderTesting
import Testing

/// The recorded Enschede forecast (°C, km/h, Europe/Amsterdam) as `weather` items in each unit system.
@Suite("Open-Meteo forecast mapping")
struct ForecastMappingTests {
    func item(units: String) async throws -> Item {
        let server = try await FixtureServer.start()
        server.route(forecastPath, try Fixture.forecast.response())
        let report = try await run(options(server: server, cities: [["lat": 52.276, "lon": 6.873]], extra: ["units": .string(units)]))
        await server.stop()
        #expect(server.requests.first?.query("current")?.contains("weather_code") == true)
        return try #require(report.items.first, "\(String(describing: report.error))")
    }

    @Test("metric: OpenWeather's field keys, values as recorded, km/h turned into m/s, local time into UTC")
    func metric() async throws {
        let item = try await item(units: "metric")
        #expect(item.date == ISO8601.date(from: "2026-10-03T10:30:00Z"), "12:30 at UTC+2")
        #expect(item.fields["utcOffsetSeconds"] == 7200)
        #expect(item.fields["condition"] == "Clouds" && item.fields["description"] == "partly cloudy", "WMO code 2")
        #expect(item.fields["units"] == "metric" && item.fields["temperatureUnit"] == "°C")
        #expect(item.fields["temperature"] == 17.7 && item.fields["feelsLike"] == 17.6)
        #expect(item.fields["humidity"] == 66 && item.fields["cloudiness"] == 73 && item.fields["windDirection"] == 259)
        #expect(item.fields["pressure"] == 1030.4 && item.fields["seaLevelPressure"] == 1030.4)
        #expect(item.fields["groundLevelPressure"] == 1026.9)
        #expect(item.fields["windSpeed"] == 1.0 && item.fields["windSpeedUnit"] == "m/s", "3.6 km/h")
        #expect(item.fields["windGust"] == 3.31, "11.9 km/h, two decimals")
        #expect(item.fields["visibility"] == 36080)
        for absent in ["temperatureMin", "temperatureMax", "rainLastHour", "snowLastHour", "country"] {
            #expect(item.fields[absent] == nil, "\(absent) is not reported by Open-Meteo for coordinates")
        }
    }

    @Test("standard is kelvin, computed from °C without float noise")
    func standard() async throws {
        let item = try await item(units: "standard")
        #expect(item.fields["temperature"] == 290.85 && item.fields["feelsLike"] == 290.75)
        #expect(item.fields["temperatureUnit"] == "K")
        #expect(item.subtitle == "Clouds, 290.85 K")
    }

    @Test("imperial converts whatever unit the body declares into °F and mph")
    func imperial() async throws {
        let item = try await item(units: "imperial")
        #expect(item.fields["temperature"] == 63.86)
        #expect(item.fields["windSpeed"] == 2.24 && item.fields["windSpeedUnit"] == "mph")
    }

    @Test("a field set is the OpenWeather item's, minus what Open-Meteo does not report")
    func sameKeysAsOpenWeather() async throws {
        let openWeatherKeys: Set<String> = [
            "condition", "description", "units", "temperature", "temperatureUnit", "feelsLike", "temperatureMin",
            "temperatureMax", "humidity", "pressure", "seaLevelPressure", "groundLevelPressure", "windSpeed", "windGust",
            "windSpeedUnit", "windDirection", "cloudiness", "visibility", "rainLastHour", "snowLastHour", "country",
            "utcOffsetSeconds",
        ]
        let keys = Set(try await item(units: "metric").fields.keys)
        #expect(keys.isSubset(of: openWeatherKeys), "\(keys.subtracting(openWeatherKeys))")
    }

    @Test("WMO codes map to OpenWeather's condition groups", arguments: [
        (0, "Clear", "clear sky"), (3, "Clouds", "overcast"), (45, "Fog", "fog"), (55, "Drizzle", "dense drizzle"),
        (63, "Rain", "moderate rain"), (82, "Rain", "violent rain showers"), (75, "Snow", "heavy snow fall"),
        (99, "Thunderstorm", "thunderstorm with heavy hail"), (42, "Unknown", "WMO weather code 42"),
    ])
    func wmoCodes(code: Int, condition: String, description: String) async throws {
        let server = try await FixtureServer.start()
        let body = #"{"utc_offset_seconds":0,"current":{"time":"2026-01-01T00:00","temperature_2m":1.5,"weather_code":\#(code)}}"#
        server.route(forecastPath, .json(body))
        let report = try await run(options(server: server, cities: [["lat": 1, "lon": 2]]))
        await server.stop()
        let item = try #require(report.items.first)
        #expect(item.fields["condition"] == .string(condition) && item.fields["description"] == .string(description))
    }
}
