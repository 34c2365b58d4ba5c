import Foundation

/// OpenWeather's error body: `{"cod":401,"message":"Invalid API key. …"}`. `cod` is a number on success
/// and 401 but the string `"404"` on 404, so it is read as either.
struct OpenWeatherErrorDTO: Decodable {
    let cod: CodeDTO?
    let message: String?

    /// The service's explanation, when the body has one.
    static func message(in body: Data) -> String? {
        (try? JSONDecoder().decode(OpenWeatherErrorDTO.self, from: body))?.message
    }

    /// The status an error body declares when it is not 200 (old API answers with HTTP 200 and
    /// `{"message":"Error: Not found city","cod":"404"}`).
    static func embeddedErrorStatus(in body: Data) -> Int? {
        guard let dto = try? JSONDecoder().decode(OpenWeatherErrorDTO.self, from: body),
              let code = dto.cod?.value, code != 200, (400...599).contains(code) else { return nil }
        return code
    }
}

/// A status code sent as a JSON number or a string.
struct CodeDTO: Decodable {
    let value: Int?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            value = number
        } else if let text = try? container.decode(String.self) {
            value = Int(text)
        } else {
            value = nil
        }
    }
}
