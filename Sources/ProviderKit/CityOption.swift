import Domain
import Foundation

/// A city as a weather provider's manifest may give it: a name, `{ "id": N }` (the service's numeric place id) or
/// `{ "lat": N, "lon": N }`. Shared by the weather providers, so a manifest moves between them unchanged.
public struct CityOption: OptionValue {
    /// The JSON shape of a list of cities for the manifest schema: names, `{ "id": N }`s and `{ "lat": N, "lon": N }`s.
    public static let listShape: OptionShape = .array(of: .anyOf([
        .string, .record(["id": .integer()], required: ["id"]),
        .record(["lat": .number, "lon": .number], required: ["lat", "lon"]),
    ]))

    /// Where the city is: a name for the service to look up, its numeric id, or coordinates.
    public var location: WeatherLocation

    /// Reads a name, `{ "id": N }` (a positive integer) or `{ "lat": N, "lon": N }` (within ±90 and ±180), and
    /// throws every problem with its path under `path` (`….lat`, `….id`) otherwise.
    public init(option: JSONValue, path: String) throws(ManifestError) {
        switch option {
        case .string(let name):
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ManifestError(path: path, "a city name cannot be empty")
            }
            location = .name(name)
        case .object(let members):
            let keys = Set(members.keys)
            if keys == ["id"] {
                let id = try Int(option: members["id"]!, path: "\(path).id")
                guard id > 0 else { throw ManifestError(path: "\(path).id", "must be a positive city id") }
                location = .id(String(id))
            } else if keys == ["lat", "lon"] {
                let latitude = try Double(option: members["lat"]!, path: "\(path).lat")
                let longitude = try Double(option: members["lon"]!, path: "\(path).lon")
                var problems: [ManifestProblem] = []
                if !(-90...90).contains(latitude) {
                    problems.append(ManifestProblem(path: "\(path).lat", message: "must be between -90 and 90"))
                }
                if !(-180...180).contains(longitude) {
                    problems.append(ManifestProblem(path: "\(path).lon", message: "must be between -180 and 180"))
                }
                if !problems.isEmpty { throw ManifestError(problems) }
                location = .coordinates(latitude: latitude, longitude: longitude)
            } else {
                throw ManifestError(path: path, "expected { \"id\": N } or { \"lat\": N, \"lon\": N }, found keys "
                    + (keys.isEmpty ? "none" : keys.sorted().joined(separator: ", ")))
            }
        default:
            throw Self.mismatch("a city name or an object", option, at: path)
        }
    }
}
