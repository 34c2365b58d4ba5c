import Domain
import Foundation
import OpenMeteoProvider
import ProviderKit
import ProviderTesting
import Testing

@Suite("Open-Meteo provider")
struct OpenMeteoProviderTests {
    let provider = OpenMeteoProvider()

    @Test("OpenWeather's cities and units options are accepted as they are, without a key")
    func sameOptionsAsOpenWeather() {
        #expect(provider.optionProblems(["cities": ["Seoul", ["id": 2643743], ["lat": 44.34, "lon": 10.99]], "units": "imperial"]).isEmpty)
        let paths = provider.optionProblems(["cities": [["lat": 100, "lon": 10]], "units": "kelvin", "apiKey": "k"]).map(\.path)
        #expect(paths.contains("sources[0].options.cities[0].lat"))
        #expect(paths.contains("sources[0].options.units"))
        #expect(paths.contains("sources[0].options.apiKey"), "Open-Meteo takes no key: an apiKey is an unknown option")
        #expect(OpenMeteoProvider().options.allSatisfy { !$0.help.isEmpty })
    }

    @Test("a name is looked up through the geocoding API, then its coordinates' current weather is read")
    func byName() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.geocoding.response())
        server.route(forecastPath, try Fixture.forecast.response())
        let report = try await run(options(server: server, cities: ["Enschede"]))
        await server.stop()
        #expect(report.status == .ok, "\(String(describing: report.error))")
        let search = try #require(server.requests(path: searchPath).first)
        #expect(search.query("name") == "Enschede" && search.query("count") == "1")
        let forecast = try #require(server.requests(path: forecastPath).first)
        #expect(forecast.query("latitude") == "52.21833" && forecast.query("longitude") == "6.89583")
        #expect(forecast.query("temperature_unit") == "celsius" && forecast.query("wind_speed_unit") == "ms")
        #expect(forecast.query("timezone") == "auto")
        let item = try #require(report.items.first)
        #expect(item.kind == .weather && item.id == "Enschede" && item.title == "Enschede")
        #expect(item.fields["country"] == "NL")
        #expect(item.subtitle == "Clouds, 17.7 °C")
    }

    @Test("\"Zocca,IT\" searches the name in that country, as OpenWeather reads it")
    func countrySuffix() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, try Fixture.geocoding.response())
        server.route(forecastPath, try Fixture.forecast.response())
        _ = try await run(options(server: server, cities: ["Zocca,IT", "Washington, D.C."]))
        await server.stop()
        let searches = server.requests(path: searchPath)
        #expect(searches.contains { $0.query("name") == "Zocca" && $0.query("countryCode") == "IT" })
        #expect(searches.contains { $0.query("name") == "Washington, D.C." && $0.query("countryCode") == nil })
    }

    @Test("a place id is read with /v1/get, coordinates go straight to the forecast")
    func byIDAndCoordinates() async throws {
        let server = try await FixtureServer.start()
        server.route(placePath, try Fixture.place.response())
        server.route(forecastPath, try Fixture.forecast.response())
        let report = try await run(options(server: server, cities: [["id": 2756071], ["lat": 52.276, "lon": 6.873]]))
        await server.stop()
        #expect(report.items.map(\.id) == ["city 2756071", "52.276,6.873"])
        #expect(report.items.map(\.title) == ["Enschede", "52.276,6.873"])
        #expect(server.requests(path: placePath).map { $0.query("id") } == ["2756071"])
        #expect(server.requests(path: searchPath).isEmpty)
        #expect(server.requests(path: forecastPath).count == 2)
    }

    @Test("a name the geocoding API does not know is a notFound warning; the other places stay")
    func unknownName() async throws {
        let server = try await FixtureServer.start()
        server.route(searchPath, query: ["name": "Atlantis"], try Fixture.geocodingEmpty.response())
        server.route(searchPath, try Fixture.geocoding.response())
        server.route(forecastPath, try Fixture.forecast.response())
        let report = try await run(options(server: server, cities: ["Atlantis", "Enschede"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["Enschede"])
        #expect(report.warnings.contains { $0.contains("Atlantis") && $0.contains("notFound") && $0.contains("no place named") })
        #expect(server.requests(path: forecastPath).count == 1, "no forecast is asked for a place that was not found")
    }

    @Test("Open-Meteo's 400 reason reaches the message as a configuration error")
    func serviceReason() async throws {
        let server = try await FixtureServer.start()
        server.route(forecastPath, try Fixture.error400.response(status: 400))
        let report = try await run(options(server: server, cities: [["lat": 52.2, "lon": 6.8]], extra: ["maxRetries": 0]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .configuration)
        #expect(report.error?.message.contains("Latitude must be in range") == true, "\(String(describing: report.error))")
    }

    @Test("a forecast without current conditions is a badResponse, not a crash")
    func noCurrent() async throws {
        let server = try await FixtureServer.start()
        server.route(forecastPath, try Fixture.forecastWithoutCurrent.response())
        let report = try await run(options(server: server, cities: [["lat": 52.2, "lon": 6.8]]))
        await server.stop()
        #expect(report.error?.kind == .badResponse)
        #expect(report.error?.message.contains("no current conditions") == true)
    }
}
