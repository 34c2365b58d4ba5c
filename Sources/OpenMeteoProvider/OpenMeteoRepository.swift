import Domain
import Foundation
import HTTPClient

/// Current weather from Open-Meteo: a place given by name or id is first looked up in the geocoding API (one
/// request), then its coordinates' `current` conditions are read from the forecast API (one request).
public struct OpenMeteoRepository {
    private let client: any HTTPFetching
    private let baseURL: URL
    private let geocodingBaseURL: URL
    private let units: UnitSystem

    public init(client: any HTTPFetching, baseURL: URL, geocodingBaseURL: URL, units: UnitSystem) {
        self.client = client
        self.baseURL = baseURL
        self.geocodingBaseURL = geocodingBaseURL
        self.units = units
    }

    /// `Zocca,IT` searches "Zocca" in Italy (OpenWeather's spelling of a country); any other name is searched as is.
    func geocodingRequest(name: String) -> HTTPRequest {
        var query = [URLQueryItem(name: "count", value: "1"), URLQueryItem(name: "format", value: "json")]
        let parts = name.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count > 1, let country = parts.last?.trimmingCharacters(in: .whitespaces), country.count == 2,
           country.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic }) {
            let place = parts.dropLast().joined(separator: ",").trimmingCharacters(in: .whitespaces)
            query.insert(URLQueryItem(name: "name", value: place), at: 0)
            query.append(URLQueryItem(name: "countryCode", value: country.uppercased()))
        } else {
            query.insert(URLQueryItem(name: "name", value: name), at: 0)
        }
        return .get(geocodingBaseURL, path: "/v1/search", query: query, headers: ["Accept": "application/json"])
    }

    func placeRequest(id: String) -> HTTPRequest {
        .get(geocodingBaseURL, path: "/v1/get", query: [URLQueryItem(name: "id", value: id)],
             headers: ["Accept": "application/json"])
    }

    func forecastRequest(latitude: Double, longitude: Double) -> HTTPRequest {
        var query = [
            URLQueryItem(name: "latitude", value: String(latitude)), URLQueryItem(name: "longitude", value: String(longitude)),
            URLQueryItem(name: "current", value: ForecastResponseDTO.currentVariables.joined(separator: ",")),
        ]
        query += MeasurementUnits.requestParameters(for: units).map { URLQueryItem(name: $0.0, value: $0.1) }
        query.append(URLQueryItem(name: "timezone", value: "auto"))
        return .get(baseURL, path: "/v1/forecast", query: query, headers: ["Accept": "application/json"])
    }

    private func place(
        for location: WeatherLocation, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Place, SourceError>) -> Void
    ) {
        let message: @Sendable (HTTPResponse) -> String? = { OpenMeteoErrorDTO.message(in: $0.body) }
        switch location {
        case .coordinates(let latitude, let longitude):
            completion(.success(Place(name: location.description, latitude: latitude, longitude: longitude)))
        case .name(let name):
            client.getJSON(GeocodingResponseDTO.self, geocodingRequest(name: name), cancellation: cancellation,
                           serviceMessage: message) { result in
                completion(result.mapError { $0.prefixed("geocoding") }.flatMap { dto in
                    guard let first = dto.results?.first else {
                        return .failure(SourceError(.notFound, "no place named '\(name)' (geocoding)"))
                    }
                    return first.toDomain()
                })
            }
        case .id(let id):
            client.getJSON(PlaceDTO.self, placeRequest(id: id), cancellation: cancellation, serviceMessage: message) { result in
                completion(result.mapError { $0.prefixed("geocoding") }.flatMap { $0.toDomain() })
            }
        }
    }
}

extension OpenMeteoRepository: WeatherRepository {
    public func currentWeather(
        at location: WeatherLocation, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void
    ) {
        let (client, units) = (self.client, self.units)
        place(for: location, cancellation: cancellation) { found in
            switch found {
            case .failure(let error): completion(.failure(error))
            case .success(let place):
                client.getJSON(ForecastResponseDTO.self, forecastRequest(latitude: place.latitude, longitude: place.longitude),
                               cancellation: cancellation, serviceMessage: { OpenMeteoErrorDTO.message(in: $0.body) }) { result in
                    completion(result.flatMap { $0.toDomain(units: units, name: place.name, country: place.country) })
                }
            }
        }
    }
}
