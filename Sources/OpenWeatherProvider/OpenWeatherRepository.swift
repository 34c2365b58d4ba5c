import Domain
import Foundation
import HTTPClient

/// Current weather from OpenWeather's API 2.5, one request per location.
public struct OpenWeatherRepository {
    private let client: any HTTPFetching
    private let baseURL: URL
    private let apiKey: String
    private let units: UnitSystem
    private let language: String?

    public init(client: any HTTPFetching, baseURL: URL, apiKey: String, units: UnitSystem, language: String? = nil) {
        self.client = client
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.units = units
        self.language = language
    }

    func request(for location: WeatherLocation) -> HTTPRequest {
        var query: [URLQueryItem]
        switch location {
        case .name(let name): query = [URLQueryItem(name: "q", value: name)]
        case .id(let id): query = [URLQueryItem(name: "id", value: id)]
        case .coordinates(let latitude, let longitude):
            query = [URLQueryItem(name: "lat", value: String(latitude)), URLQueryItem(name: "lon", value: String(longitude))]
        }
        query.append(URLQueryItem(name: "appid", value: apiKey))
        query.append(URLQueryItem(name: "units", value: units.rawValue))
        if let language { query.append(URLQueryItem(name: "lang", value: language)) }
        return .get(baseURL, path: "/data/2.5/weather", query: query, headers: ["Accept": "application/json"],
                    secrets: [apiKey])
    }
}

extension OpenWeatherRepository: WeatherRepository {
    public func currentWeather(
        at location: WeatherLocation, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<Weather, SourceError>) -> Void
    ) {
        let request = request(for: location)
        let units = self.units
        client.send(request, cancellation: cancellation, serviceMessage: { OpenWeatherErrorDTO.message(in: $0.body) }) { result in
            completion(result.flatMap { response in
                Self.weather(from: response, units: units, location: location, secrets: request.secrets)
            })
        }
    }

    /// The body of a successful HTTP answer. The old API also reports errors with HTTP 200 and the real
    /// status in `cod`, so that is checked before the body is read as weather.
    static func weather(
        from response: HTTPResponse, units: UnitSystem, location: WeatherLocation, secrets: [String]
    ) -> Result<Weather, SourceError> {
        if let status = OpenWeatherErrorDTO.embeddedErrorStatus(in: response.body) {
            var embedded = response
            embedded.status = status
            let message = OpenWeatherErrorDTO.message(in: response.body)
            if let error = embedded.statusError(serviceMessage: message, secrets: secrets) {
                return .failure(SourceError(error.kind, "\(error.message) (reported in the body of an HTTP \(response.status))"))
            }
        }
        return response.decode(CurrentWeatherResponseDTO.self).flatMap { dto in
            dto.toDomain(units: units, requested: location)
        }
    }
}
