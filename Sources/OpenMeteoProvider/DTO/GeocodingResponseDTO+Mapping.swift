import Domain
import Foundation

// MARK: - Data Transfer Object

/// `GET /v1/search?name=…` of the geocoding API: `results` is absent (not empty) when nothing matched.
struct GeocodingResponseDTO: Decodable {
    let results: [PlaceDTO]?
}

/// One place of the geocoding API, as `/v1/search` lists them and `/v1/get?id=…` returns one. `id` is the
/// GeoNames id; only what the forecast request and the item need is decoded.
struct PlaceDTO: Decodable {
    let id: Int?
    let name: String
    let latitude: Double
    let longitude: Double
    let countryCode: String?

    enum CodingKeys: String, CodingKey {
        case id, name, latitude, longitude
        case countryCode = "country_code"
    }
}

// MARK: - Mappings to Domain

/// A place found by name or id: where to ask for the forecast, and what the item calls it.
struct Place: Sendable, Hashable {
    var name: String
    var country: String?
    var latitude: Double
    var longitude: Double
}

extension PlaceDTO {
    func toDomain() -> Result<Place, SourceError> {
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return .failure(SourceError(.badResponse, "the geocoding answer has coordinates out of range"))
        }
        return .success(Place(
            name: name, country: countryCode.flatMap { $0.isEmpty ? nil : $0 }, latitude: latitude, longitude: longitude))
    }
}
