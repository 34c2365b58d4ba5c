import Foundation

extension CapabilityTemplate {
    static func weather(_ name: ProviderName) -> CapabilityTemplate {
        let type = name.typeName
        let repository = "\(type)WeatherRepository"
        let dto = "\(type)ResponseDTO"
        return CapabilityTemplate(
            summary: "Current weather for many cities at once (\(name.displayName))",
            manifestOptions: #"{ "cities": ["Seoul", "Busan"], "units": "metric", "apiKey": "${\#(name.apiKeyVariable)}" }"#,
            about: [
                "Each city is one request (`GET {baseURL}/weather?city=CITY&units=UNITS`), fetched concurrently up to",
                "the source's `concurrency` and reported in manifest order. A city that fails is a warning naming it;",
                "the source fails only when every city failed. Items: `kind: \"weather\"`, `id` = the city as asked for.",
            ],
            optionSpecs: #"""
                        OptionSpec("cities", "array of strings", required: true, help: "The places to report, in output order."),
                        OptionSpec("units", "standard|metric|imperial", default: UnitSystem.metric.rawValue,
                                   help: "Kelvin and m/s, °C and m/s, or °F and mph."),
            """#,
            readOptions: #"""
                    let cities = reader.require("cities", as: [String].self)
                    if cities?.isEmpty == true { reader.problem("cities", "name at least one city") }
                    for (index, city) in (cities ?? []).enumerated() where city.trimmingCharacters(in: .whitespaces).isEmpty {
                        reader.problem("cities[\(index)]", "a city name cannot be empty")
                    }
                    let units = reader.value("units", as: UnitSystem.self) ?? .metric
            """#,
            unwrapOptions: #"""
                    guard let cities else { throw ManifestError(path: configuration.optionsPath, "incomplete options") }
            """#,
            makeSource: #"""
                    let repository = \#(repository)(client: client, baseURL: http.baseURL, apiKey: apiKey, units: units)
                    return FetchWeatherUseCase(repository: repository, locations: cities.map(WeatherLocation.name))
            """#,
            repositoryFile: #"""
            import Domain
            import Foundation
            import HTTPClient

            /// Current weather from \#(name.displayName): `GET {baseURL}/weather?city=CITY&units=UNITS`, one request per city.
            public struct \#(repository) {
            \#(RequestTemplate.members(repository, extra: [("units", "UnitSystem")]))

                func request(for location: WeatherLocation) -> HTTPRequest {
            \#(RequestTemplate.headers)
                    let query = [URLQueryItem(name: "city", value: location.description),
                                 URLQueryItem(name: "units", value: units.rawValue)]
                    return .get(baseURL, path: "/weather", query: query, headers: headers, secrets: \#(RequestTemplate.secrets))
                }
            }

            extension \#(repository): WeatherRepository {
                public func currentWeather(
                    at location: WeatherLocation, cancellation: CancellationToken,
                    completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void
                ) {
                    let units = self.units
                    client.getJSON(\#(dto).self, request(for: location), cancellation: cancellation) { result in
                        completion(result.flatMap { $0.toDomain(units: units) })
                    }
                }
            }

            """#,
            dtoFile: #"""
            import Domain
            import Foundation

            // MARK: - Data Transfer Object

            /// `GET /weather`, success body. Optional wherever real responses may omit a field.
            struct \#(dto): Decodable {
                let city: String
                /// Unix seconds.
                let observedAt: Int
                let condition: String
                let description: String?
                let temperature: Double
                let humidity: Double?
                let windSpeed: Double?
            }

            // MARK: - Mappings to Domain

            extension \#(dto) {
                /// `units` is what was asked for: the body does not say.
                func toDomain(units: UnitSystem) -> Result<Weather, SourceError> {
                    guard temperature.isFinite else { return .failure(SourceError(.badResponse, "the temperature is not a number")) }
                    return .success(Weather(
                        locationName: city, observedAt: Date(timeIntervalSince1970: TimeInterval(observedAt)),
                        condition: condition, conditionDescription: description ?? condition, units: units,
                        temperature: temperature, humidity: humidity, windSpeed: windSpeed))
                }
            }

            """#,
            fixtureName: "weather.json",
            fixture: #"""
            {"city":"Zocca","observedAt":1661870592,"condition":"Rain","description":"moderate rain","temperature":22.5,"humidity":64,"windSpeed":0.62}

            """#,
            testOptions: #""cities": ["Zocca", "Modena", "Bologna"], "units": "metric""#,
            routes: #"        server.route("/weather", try recordedResponse())"#,
            expectedIDs: #"["Zocca", "Modena", "Bologna"]"#,
            requestExpectations: #"""
                    #expect(server.requests.compactMap { $0.query("city") }.sorted() == ["Bologna", "Modena", "Zocca"])
                    #expect(server.requests.allSatisfy { $0.query("units") == "metric" })
            """#,
            invalidKey: "units", invalidValue: #""kelvin""#, invalidPath: "sources[0].options.units")
    }
}
