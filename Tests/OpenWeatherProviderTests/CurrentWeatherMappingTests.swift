import Domain
import Foundation
import OpenWeatherProvider
import ProviderTesting
import Testing

@Suite("OpenWeather responses mapped to weather items")
struct CurrentWeatherMappingTests {
    @Test("the documented sample (standard units) maps every field, in Kelvin")
    func zocca() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response())
        let report = await run(try makeSource(server: server, cities: ["Zocca"], units: "standard"))
        await server.stop()
        #expect(report.status == .ok)
        let item = try #require(report.items.first)
        #expect(item.kind == .weather)
        #expect(item.id == "Zocca")
        #expect(item.title == "Zocca")
        #expect(item.subtitle == "Rain, 298.48 K")
        #expect(item.date == Date(timeIntervalSince1970: 1_661_870_592))
        let expected: JSONObject = [
            "condition": "Rain", "description": "moderate rain", "units": "standard", "temperature": 298.48,
            "temperatureUnit": "K", "feelsLike": 298.74, "temperatureMin": 297.56, "temperatureMax": 300.05,
            "humidity": 64, "pressure": 1015, "seaLevelPressure": 1015, "groundLevelPressure": 933,
            "windSpeed": 0.62, "windGust": 1.18, "windSpeedUnit": "m/s", "windDirection": 349,
            "cloudiness": 100, "visibility": 10000, "rainLastHour": 3.16, "country": "IT", "utcOffsetSeconds": 7200,
        ]
        #expect(item.fields == expected)
    }

    @Test("a 2013 response without timezone or visibility still maps, leaving those fields out")
    func london2013() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.london2013.response())
        let report = await run(try makeSource(server: server, cities: [["id": 2643743]], units: "standard"))
        await server.stop()
        let item = try #require(report.items.first)
        #expect(item.id == "city 2643743")
        #expect(item.title == "London")
        #expect(item.subtitle == "Clouds, 288.44 K")
        #expect(item.fields["utcOffsetSeconds"] == nil)
        #expect(item.fields["visibility"] == nil)
        #expect(item.fields["feelsLike"] == nil)
        #expect(item.fields["rainLastHour"] == nil)
        #expect(item.fields["country"] == "GB")
    }

    @Test("the unit symbol follows the units asked for", arguments: [
        ("metric", "°C", "m/s"), ("imperial", "°F", "mph"), ("standard", "K", "m/s"),
    ])
    func unitSymbols(units: String, temperature: String, wind: String) async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response())
        let report = await run(try makeSource(server: server, cities: ["Zocca"], units: units))
        let request = try #require(server.requests.first)
        await server.stop()
        let item = try #require(report.items.first)
        #expect(request.query("units") == units)
        #expect(item.subtitle?.hasSuffix(" \(temperature)") == true)
        #expect(item.fields["windSpeedUnit"] == .string(wind))
    }

    @Test("names, city ids and coordinates are asked for with the key, units and language")
    func requestShape() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response())
        let source = try makeSource(server: server, cities: ["São Paulo", ["id": 1835848], ["lat": 44.34, "lon": 10.99]],
                                    extra: ["lang": "ko"])
        let report = await run(source)
        let requests = server.requests.sorted { $0.target < $1.target }
        await server.stop()
        #expect(report.items.map(\.id) == ["São Paulo", "city 1835848", "44.34,10.99"])
        #expect(requests.count == 3)
        for request in requests {
            #expect(request.path == weatherPath)
            #expect(request.query("appid") == apiKey)
            #expect(request.query("units") == "metric")
            #expect(request.query("lang") == "ko")
            #expect(request.header("user-agent")?.hasPrefix("aggregate/") == true)
        }
        #expect(requests.contains { $0.query("q") == "São Paulo" })
        #expect(requests.contains { $0.query("id") == "1835848" })
        #expect(requests.contains { $0.query("lat") == "44.34" && $0.query("lon") == "10.99" })
    }
}

@Suite("OpenWeather measurements as reported")
struct MeasurementPrecisionTests {
    @Test("fractional pressure, humidity, wind direction, cloudiness and visibility are kept, not rounded")
    func fractions() async throws {
        var body = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Fixture.zocca.url)) as? [String: Any])
        var main = try #require(body["main"] as? [String: Any])
        main["pressure"] = 1020.95
        main["humidity"] = 64.5
        body["main"] = main
        body["wind"] = ["speed": 0.62, "deg": 349.5]
        body["clouds"] = ["all": 12.5]
        body["visibility"] = 9999.9
        let server = try await FixtureServer.start()
        server.route(weatherPath, .json(String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)))
        let report = await run(try makeSource(server: server, cities: ["Zocca"], units: "standard"))
        await server.stop()
        let item = try #require(report.items.first)
        #expect(item.fields["pressure"] == .double(1020.95))
        #expect(item.fields["humidity"] == .double(64.5))
        #expect(item.fields["windDirection"] == .double(349.5))
        #expect(item.fields["cloudiness"] == .double(12.5))
        #expect(item.fields["visibility"] == .double(9999.9))
    }
}
