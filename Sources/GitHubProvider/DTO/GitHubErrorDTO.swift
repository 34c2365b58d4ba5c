import Foundation

/// GitHub's error body: `{"message": "Not Found", "documentation_url": "…"}`; 422 adds
/// `errors[]{resource, code, field}`. Older bodies carry only `message`.
struct GitHubErrorDTO: Decodable {
    struct FieldErrorDTO: Decodable {
        let resource: String?
        let code: String?
        let field: String?
    }

    let message: String?
    let errors: [FieldErrorDTO]?

    /// The service's explanation, with 422 field errors appended (`Validation Failed (labels: invalid)`).
    static func message(in body: Data) -> String? {
        guard let dto = try? JSONDecoder().decode(GitHubErrorDTO.self, from: body),
              let message = dto.message, !message.isEmpty else { return nil }
        let details = (dto.errors ?? []).compactMap { error -> String? in
            let subject = error.field ?? error.resource
            switch (subject, error.code) {
            case let (subject?, code?): return "\(subject): \(code)"
            case let (subject?, nil): return subject
            case let (nil, code?): return code
            case (nil, nil): return nil
            }
        }
        return details.isEmpty ? message : "\(message) (\(details.joined(separator: ", ")))"
    }
}
