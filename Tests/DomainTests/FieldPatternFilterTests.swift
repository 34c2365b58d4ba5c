import Domain
import Foundation
import Testing

@Suite("Filter rules: fields and patterns")
struct FieldPatternFilterTests {
    static let item = Item(
        kind: .issue, id: "42", title: "Crash on launch", subtitle: "apple/swift#42", url: URL(string: "https://example.org/42"),
        date: Date(timeIntervalSince1970: 0),
        fields: ["author": "ada", "labels": [["name": "bug"], ["name": "crash"]], "comments": 12, "draft": false,
                 "nested": ["deep": ["value": "found"]], "none": nil])

    static let paths: [(String, [String])] = [
        ("title", ["Crash on launch"]), ("subtitle", ["apple/swift#42"]), ("url", ["https://example.org/42"]),
        ("id", ["42"]), ("kind", ["issue"]), ("date", ["1970-01-01T00:00:00Z"]), ("author", ["ada"]), ("summary", []),
        ("fields.labels.name", ["bug", "crash"]), ("fields.labels", ["bug", "crash"]), ("fields.comments", ["12"]),
        ("fields.draft", ["false"]), ("fields.nested.deep.value", ["found"]), ("fields.none", []), ("fields.missing", []),
    ]

    @Test("a path reaches the texts of the item's members and fields; lists are looked into", arguments: paths)
    func texts(_ path: String, expected: [String]) throws {
        let field = try #require(ItemFieldPath(path))
        #expect(field.texts(of: Self.item) == expected)
    }

    @Test("names that are no field are refused", arguments: ["titel", "fields", "fields.", "fields..x", "", "labels"])
    func unknown(_ path: String) {
        #expect(ItemFieldPath(path) == nil)
    }

    @Test("exclude wins over include; include keeps an item when any of its patterns matches")
    func semantics() throws {
        func rule(_ path: String, _ pattern: String) throws -> FieldPatternFilter.Rule {
            FieldPatternFilter.Rule(field: try #require(ItemFieldPath(path)), pattern: try NSRegularExpression(pattern: pattern))
        }
        #expect(FieldPatternFilter(include: [try rule("title", "nothing"), try rule("fields.labels.name", "^bug$")], exclude: [])
            .keeps(Self.item))
        #expect(!FieldPatternFilter(include: [try rule("title", "(?i)crash")], exclude: [try rule("author", "ada")]).keeps(Self.item))
        #expect(!FieldPatternFilter(include: [try rule("summary", ".")], exclude: []).keeps(Self.item), "a missing field matches nothing")
        #expect(FieldPatternFilter(include: [], exclude: [try rule("fields.none", ".*")]).keeps(Self.item))
    }
}
