import Domain
import Foundation
import ProviderTesting
import Testing

/// Numbers as OpenWeather wrote them: answers of some years and stations carry fractions where the docs
/// show integers (seen in real answers: `"pressure": 1025.25`, `"sea_level": 1035.35`, `"deg": 255.003`,
/// `"humidity": 100.0`). The bodies here are the recorded Zocca and London answers with one value changed
/// in memory, which is said in each test.
@Suite("OpenWeather numbers kept as reported")
struct NumberPrecisionTests {
    /// The recorded Zocca body with `main`, `wind`, `clouds` or the top level edited.
    static func zocca(_ edit: (inout [String: Any]) -> Void) throws -> FixtureResponse {
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixture.zocca.url)) as? [String: Any] ?? [:]
        edit(&object)
        return FixtureResponse(status: 200, headers: [("Content-Type", "application/json")],
                               body: try JSONSerialization.data(withJSONObject: object))
    }

    static func fields(_ response: FixtureResponse) async throws -> JSONObject {
        let server = try await FixtureServer.start()
        server.route(weatherPath, response)
        let report = await run(try makeSource(server: server, cities: ["Zocca"]))
        await server.stop()
        #expect(report.status == .ok)
        return try #require(report.items.first).fields
    }

    static func setting(_ group: String?, _ key: String, to value: Double) throws -> FixtureResponse {
        try zocca { object in
            if let group {
                var members = object[group] as? [String: Any] ?? [:]
                members[key] = value
                object[group] = members
            } else {
                object[key] = value
            }
        }
    }

    @Test("every numeric field keeps a fraction as is and a whole number, even 100.0, as an integer", arguments: [
        ("main", "pressure", "pressure", 1020.95, .double(1020.95)),
        ("main", "pressure", "pressure", 1021.0, .int(1021)),
        ("main", "humidity", "humidity", 64.5, .double(64.5)),
        ("main", "humidity", "humidity", 100.0, .int(100)),
        ("main", "sea_level", "seaLevelPressure", 1035.35, .double(1035.35)),
        ("main", "grnd_level", "groundLevelPressure", 1025.25, .double(1025.25)),
        ("wind", "deg", "windDirection", 255.003, .double(255.003)),
        ("wind", "deg", "windDirection", 360.0, .int(360)),
        ("wind", "gust", "windGust", 2.57, .double(2.57)),
        ("clouds", "all", "cloudiness", 36.5, .double(36.5)),
        (nil, "visibility", "visibility", 9999.5, .double(9999.5)),
        (nil, "visibility", "visibility", 10000.0, .int(10000)),
    ] as [(String?, String, String, Double, JSONValue)])
    func keptAsSent(group: String?, key: String, field: String, value: Double, expected: JSONValue) async throws {
        let fields = try await Self.fields(Self.setting(group, key, to: value))
        #expect(fields[field] == expected)
    }

    @Test("JSON output prints 1020.95 hPa as 1020.95")
    func jsonOutput() async throws {
        let fields = try await Self.fields(Self.setting("main", "pressure", to: 1020.95))
        let json = try #require(fields["pressure"]).compactJSON
        #expect(json == "1020.95")
    }
}
