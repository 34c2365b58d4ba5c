import Domain
import Foundation
import OpenWeatherProvider
import ProviderTesting
import Testing

@Suite("OpenWeather source: concurrency, partial failure and faults")
struct OpenWeatherFailureTests {
    @Test("many cities are fetched concurrently and reported in manifest order")
    func manyCitiesConcurrently() async throws {
        let server = try await FixtureServer.start()
        // Each answer is held long enough that every request must be in flight at once to be seen together:
        // the proof is the server's own count of concurrent requests, not a wall-clock bound.
        let cities = (1...12).map { "City \($0)" }
        server.route(weatherPath, try Fixture.zocca.response().delayed(2))
        let report = await run(try makeSource(server: server, cities: cities.map(JSONValue.string), concurrency: 12),
                               concurrency: 12)
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == cities)
        #expect(server.requestCount == 12)
        #expect(server.peakConcurrentRequests >= 7, "more than the usual 6 connections per host")
    }

    @Test("concurrency bounds the requests in flight")
    func concurrencyBound() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response().delayed(0.1))
        let report = await run(try makeSource(server: server, cities: (1...8).map { .string("C\($0)") }, concurrency: 2),
                               concurrency: 2)
        await server.stop()
        #expect(report.items.count == 8)
        #expect(server.peakConcurrentRequests <= 2)
    }

    @Test("a 404 city is reported as a warning without losing the other cities")
    func cityNotFound() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response())
        server.route(weatherPath, query: ["q": "Atlantis"], try Fixture.cityNotFound.response(status: 404))
        let report = await run(try makeSource(server: server, cities: ["Zocca", "Atlantis", "Modena"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["Zocca", "Modena"])
        #expect(report.warnings == ["Atlantis: notFound: HTTP 404 Not Found: city not found"])
    }

    @Test("the old API's not-found body with HTTP 200 is a not-found city, not weather")
    func legacyNotFoundWithHTTP200() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.legacyNotFound.response(status: 200))
        let report = await run(try makeSource(server: server, cities: ["Nowhere"]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .notFound)
        #expect(report.error?.message.contains("Error: Not found city") == true)
    }

    @Test("a bad key fails the source as unauthorized with the service's message")
    func invalidKey() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.invalidKey.response(status: 401))
        let report = await run(try makeSource(server: server, cities: ["Seoul", "Busan"]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .unauthorized)
        #expect(report.error?.message.contains("Invalid API key") == true)
        #expect(server.requestCount == 2, "401 is not retried")
    }

    @Test("429 with Retry-After, then success: the city is delivered")
    func rateLimitedThenSuccess() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, .json(#"{"cod":429,"message":"slow down"}"#, status: 429, headers: [("Retry-After", "1")]),
                     try Fixture.zocca.response())
        let report = await run(try makeSource(server: server, cities: ["Zocca"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.count == 1)
        #expect(server.requestCount == 2)
    }

    @Test("500, then success: the city is delivered")
    func serverErrorThenSuccess() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, .json("{}", status: 500), try Fixture.zocca.response())
        let report = await run(try makeSource(server: server, cities: ["Zocca"]))
        await server.stop()
        #expect(report.status == .ok)
        #expect(report.items.first?.title == "Zocca")
    }

    @Test("malformed JSON is a badResponse error")
    func malformedJSON() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, .json(#"{"coord":{"lon":10.99,"lat":44.3"#))
        let report = await run(try makeSource(server: server, cities: ["Zocca"]))
        await server.stop()
        #expect(report.status == .error)
        #expect(report.error?.kind == .badResponse)
    }

    @Test("a city slower than the source's timeout makes the source time out, keeping faster cities")
    func timeout() async throws {
        let server = try await FixtureServer.start()
        server.route(weatherPath, try Fixture.zocca.response())
        server.route(weatherPath, query: ["q": "Slow"], try Fixture.zocca.response().delayed(8))
        let report = await run(try makeSource(server: server, cities: ["Fast", "Slow"], timeoutSeconds: 1), timeoutSeconds: 1)
        await server.stop()
        #expect(report.status == .timeout)
        #expect(report.error?.kind == .timeout)
    }

    @Test("failing runs never show the API key: not in errors, warnings, items or verbose logs", arguments: [
        "401", "404", "500", "malformed", "timeout", "refused",
    ])
    func keyNeverShown(fault: String) async throws {
        let capture = LogCapture()
        let server = try await FixtureServer.start()
        // The service echoing the key back must not leak it either.
        let echo = #"{"cod":500,"message":"internal error for appid \#(apiKey)"}"#
        switch fault {
        case "401": server.route(weatherPath, try Fixture.invalidKey.response(status: 401))
        case "404": server.route(weatherPath, try Fixture.cityNotFound.response(status: 404))
        case "500": server.route(weatherPath, .json(echo, status: 500))
        case "malformed": server.route(weatherPath, .json("{\"main\": \(apiKey)"))
        case "timeout": server.route(weatherPath, try Fixture.zocca.response().delayed(5))
        default: break
        }
        let baseURL = fault == "refused" ? try await FixtureServer.refusedURL() : server.baseURL
        let source = try OpenWeatherProvider().makeSource(.testing(
            id: "weather",
            options: ["cities": ["Seoul", "Busan"], "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString),
                      "maxRetries": 1],
            timeoutSeconds: 1.5, logger: capture.logger()))
        let report = await run(source, timeoutSeconds: 1.5)
        await server.stop()
        #expect(report.status != .ok)
        let everything = SourceRunner.texts(of: report) + capture.messages
        #expect(!everything.isEmpty)
        for text in everything { #expect(!text.contains(apiKey)) }
        if fault != "timeout" {
            #expect(capture.messages.contains { $0.contains("appid=***") }, "verbose lines show the redacted URL")
        }
    }
}
