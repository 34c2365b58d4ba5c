import Foundation

/// TMDB's error bodies, which come in two shapes:
///
/// - `{"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}`
///   (401; a 404 sends `status_code` 34 and no `success`),
/// - `{"errors":["query must be provided"]}` (422, a request the API would not accept).
///
/// The HTTP status decides the `SourceError` kind (401 → unauthorized, 404 → notFound, 422 → configuration);
/// this reads TMDB's own explanation for the message.
struct TMDBErrorDTO: Decodable {
    let statusCode: Int?
    let statusMessage: String?
    let success: Bool?
    let errors: [String]?

    enum CodingKeys: String, CodingKey {
        case success, errors
        case statusCode = "status_code"
        case statusMessage = "status_message"
    }

    /// The service's explanation, when the body is one of TMDB's error shapes.
    static func message(in body: Data) -> String? {
        guard let dto = try? JSONDecoder().decode(TMDBErrorDTO.self, from: body) else { return nil }
        if let message = dto.statusMessage?.trimmingCharacters(in: .whitespacesAndNewlines), !message.isEmpty {
            return message
        }
        let errors = (dto.errors ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        return errors.isEmpty ? nil : errors.joined(separator: "; ")
    }
}
