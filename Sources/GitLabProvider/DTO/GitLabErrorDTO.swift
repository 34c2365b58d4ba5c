import Foundation

/// GitLab's error bodies: `{"message": "404 Project Not Found"}`, `{"error": "state does not have a valid value"}`,
/// and validation errors as an object of field messages: `{"message": {"labels": ["is invalid"]}}`.
struct GitLabErrorDTO: Decodable {
    let message: String?
    let error: String?

    enum CodingKeys: String, CodingKey { case message, error }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        error = try? container.decode(String.self, forKey: .error)
        if let text = try? container.decode(String.self, forKey: .message) {
            message = text
        } else if let fields = try? container.decode([String: [String]].self, forKey: .message) {
            message = fields.keys.sorted().map { "\($0): \(fields[$0]!.joined(separator: ", "))" }.joined(separator: "; ")
        } else {
            message = nil
        }
    }

    /// The service's explanation, when the body has one.
    static func message(in body: Data) -> String? {
        guard let dto = try? JSONDecoder().decode(GitLabErrorDTO.self, from: body) else { return nil }
        return [dto.message, dto.error].compactMap { $0?.isEmpty == false ? $0 : nil }.first
    }
}
