import Domain
import ProviderKit
import Testing

@Suite("Option shapes for the manifest schema")
struct OptionShapeTests {
    @Test("an option's type words give its JSON shape", arguments: [
        ("string (URL)", OptionShape.string),
        ("integer", .integer()),
        ("integer 1–20", .integer(minimum: 1, maximum: 20)),
        ("integer ≥ 1", .integer(minimum: 1)),
        ("number", .number),
        ("boolean", .boolean),
        ("open|closed|all", .oneOf(["open", "closed", "all"])),
        ("stdin | file", .oneOf(["stdin", "file"])),
        ("array of strings (http/https URLs)", .array(of: .string)),
        ("array of \"owner/name\" strings", .array(of: .string)),
        ("object of strings", .object(values: .string)),
        ("object", .object(values: nil)),
        ("any JSON", .any),
    ])
    func inferred(words: String, shape: OptionShape) {
        #expect(OptionShape.inferred(from: words) == shape)
    }

    @Test("words that follow no form give no shape, so the spec must give one",
          arguments: ["ISO 8601 date or relative", "a city name", "integer 1 to 20"])
    func unknown(words: String) {
        #expect(OptionShape.inferred(from: words) == nil)
    }

    @Test("a range becomes minimum and maximum; a record forbids other keys")
    func schema() {
        #expect(OptionShape.integer(minimum: 0, maximum: 10).jsonSchema
                == ["type": "integer", "minimum": 0, "maximum": 10])
        let record = OptionShape.record(["id": .integer()], required: ["id"]).jsonSchema
        #expect(record["additionalProperties"] == .bool(false))
        #expect(record["required"] == ["id"])
    }
}
