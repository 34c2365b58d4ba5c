import Foundation

/// Open-Meteo's error body (HTTP 400): `{"error": true, "reason": "Latitude must be in range of -90 to 90°. …"}`.
struct OpenMeteoErrorDTO: Decodable {
    let error: Bool?
    let reason: String?

    /// The service's explanation, when the body has one.
    static func message(in body: Data) -> String? {
        guard let dto = try? JSONDecoder().decode(OpenMeteoErrorDTO.self, from: body), let reason = dto.reason,
              !reason.isEmpty else { return nil }
        return reason
    }
}
