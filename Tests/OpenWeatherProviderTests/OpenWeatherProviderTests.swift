import Domain
import Foundation
import OpenWeatherProvider
import ProviderKit
import ProviderTesting
import Testing

@Suite("OpenWeather provider options")
struct OpenWeatherProviderTests {
    let provider = OpenWeatherProvider()

    @Test("a complete manifest entry builds a source")
    func valid() {
        #expect(provider.optionProblems([
            "cities": ["Seoul", ["id": 2643743], ["lat": 44.34, "lon": 10.99]], "apiKey": "k", "units": "imperial",
            "lang": "ko", "maxRetries": 1,
        ]).isEmpty)
        #expect(OpenWeatherProvider().name == "openweather")
    }

    @Test("missing cities and key are reported together, with their JSON paths")
    func missing() {
        let paths = provider.optionProblems([:]).map(\.path)
        #expect(paths == ["sources[0].options.cities", "sources[0].options.apiKey"])
    }

    @Test("bad values name the exact place and the allowed values")
    func badValues() throws {
        let found = provider.optionProblems([
            "cities": ["Seoul", ["lat": 100, "lon": 10], ["name": "x"], 42], "apiKey": "k", "units": "kelvin",
            "citys": [],
        ])
        let byPath = Dictionary(found.map { ($0.path, $0.message) }, uniquingKeysWith: { $0 + "; " + $1 })
        #expect(byPath["sources[0].options.cities[1].lat"]?.contains("between -90 and 90") == true)
        #expect(byPath["sources[0].options.cities[2]"]?.contains("\"id\"") == true)
        #expect(byPath["sources[0].options.cities[3]"]?.contains("found an integer") == true)
        #expect(byPath["sources[0].options.units"]?.contains("standard, metric, imperial") == true)
        #expect(byPath["sources[0].options.citys"]?.contains("did you mean 'cities'") == true)
    }

    @Test("the key is refused over plain http to a host that is not loopback")
    func plainHTTP() throws {
        let found = provider.optionProblems(["cities": ["Seoul"], "apiKey": .string(apiKey), "baseURL": "http://api.openweathermap.org"])
        let problem = try #require(found.first)
        #expect(problem.path == "sources[0].options.baseURL")
        #expect(problem.message.contains("https://"))
        #expect(!problem.message.contains(apiKey))
    }

    @Test("every option is documented, the shared HTTP ones included")
    func specs() {
        let names = OpenWeatherProvider().options.map(\.name)
        for name in ["cities", "apiKey", "units", "lang", "baseURL", "maxRetries"] { #expect(names.contains(name)) }
        #expect(OpenWeatherProvider().options.allSatisfy { !$0.help.isEmpty })
    }
}
