import Domain
@testable import FilesProvider
import Foundation
import ProviderKit
import Testing

@Suite("Field mapping")
struct FieldMappingTests {
    private func record(_ fields: JSONObject, _ mapping: FieldMapping = FieldMapping(), line: Int = 7) -> Record {
        mapping.record(from: FileRow(fields: fields, line: line), unit: "data/x.ndjson")
    }

    @Test("the default names fill title, id, date and url")
    func defaults() {
        let record = record([
            "uuid": "u-1", "name": "Mina", "createdAt": "2026-11-20T08:00:00Z", "href": "https://example.org/m",
        ])
        #expect(record.id == "u-1")
        #expect(record.title == "Mina")
        #expect(record.date == ISO8601.date(from: "2026-11-20T08:00:00Z"))
        #expect(record.url == URL(string: "https://example.org/m"))
        #expect(record.fields.count == 4)
    }

    @Test("the first present default wins, in the documented order")
    func defaultOrder() {
        let record = record(["subject": "S", "name": "N", "title": "T", "key": "k", "id": 12, "date": nil, "updated": 0])
        #expect(record.title == "T")
        #expect(record.id == "12")
        #expect(record.date == Date(timeIntervalSince1970: 0))
    }

    @Test("without an id the record is named by file and line, and without a title by its id")
    func fallbacks() {
        let record = record(["value": 3])
        #expect(record.id == "data/x.ndjson:7")
        #expect(record.title == "data/x.ndjson:7")
        #expect(record.date == nil)
        #expect(record.url == nil)
    }

    @Test("an explicit mapping overrides the defaults, including dotted paths into objects")
    func explicitMapping() {
        let mapping = FieldMapping([.title: "headline", .id: "number", .date: "meta.published", .url: "html_url"])
        let record = record(
            ["title": "ignored", "headline": "H", "number": 42, "meta": ["published": 1_700_000_000],
             "html_url": "https://github.com/o/r/issues/42"], mapping)
        #expect(record.title == "H")
        #expect(record.id == "42")
        #expect(record.date == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(record.url?.absoluteString == "https://github.com/o/r/issues/42")
    }

    @Test("the one-walk default lookup knows exactly the documented default names, ranked in their order")
    func defaultNames() {
        for target in FieldMapping.Target.allCases {
            for (rank, name) in target.defaults.enumerated() {
                let slot = FieldMapping.defaultSlot(of: name)
                #expect(slot?.0 == target && slot?.rank == rank, "\(name)")
            }
        }
        for near in ["", "Title", "titles", "ID", "created_at", "update", "uri", "links", "hre", "nam", "keys", "dat"] {
            #expect(FieldMapping.defaultSlot(of: near) == nil, "\(near)")
        }
    }

    @Test("defaults: null and look-alike keys are skipped, the best ranked present value wins whatever the key order")
    func defaultsAmongManyKeys() {
        let fields: JSONObject = [
            "Title": "no", "titles": "no", "subject": "S", "name": nil, "uuid": "u", "key": "k", "created_at": "no",
            "timestamp": 1_700_000_000, "updated": nil, "createdAt": "2026-11-20T08:00:00Z", "href": "https://h.example/",
            "link": "https://l.example/", "url": nil, "id": nil, "extra": ["title": "nested, not a field"],
        ]
        let record = record(fields)
        #expect(record.title == "S")
        #expect(record.id == "u")
        #expect(record.date == ISO8601.date(from: "2026-11-20T08:00:00Z"))
        #expect(record.url == URL(string: "https://l.example/"))
        #expect(record.fields == fields)
        // A partial mapping: the mapped target by its name, the others by the defaults as before.
        let mapped = self.record(fields, FieldMapping([.title: "Title"]))
        #expect(mapped.title == "no")
        #expect(mapped.id == "u")
        #expect(mapped.url == URL(string: "https://l.example/"))
    }

    @Test("a mapped field that is missing does not fall back to the defaults")
    func missingMappedField() {
        let record = record(["title": "T", "id": "i"], FieldMapping([.title: "headline", .id: "uuid"]))
        #expect(record.title == "data/x.ndjson:7")
        #expect(record.id == "data/x.ndjson:7")
    }

    @Test("dates come from ISO 8601 text or epoch seconds (milliseconds when huge); other text is no date",
          arguments: [
              (JSONValue.string("2026-11-20T08:00:00Z"), 1_795_161_600.0),
              (.string("2026-11-20T17:00:00+09:00"), 1_795_161_600.0),
              (.string("2026-11-20"), 1_795_132_800.0),
              (.string("1795161600"), 1_795_161_600.0),
              (.int(1_795_161_600), 1_795_161_600.0),
              (.int(1_795_161_600_000), 1_795_161_600.0),
              (.double(1_795_161_600.5), 1_795_161_600.5),
          ])
    func dates(value: JSONValue, seconds: Double) {
        #expect(record(["date": value]).date == Date(timeIntervalSince1970: seconds))
    }

    @Test("values that are not dates or absolute URLs leave date and url empty", arguments: [
        JSONValue.string("next Tuesday"), .string("relative/path"), .bool(true), .array([1]),
    ])
    func unconvertible(value: JSONValue) {
        let record = record(["date": value, "url": value])
        #expect(record.date == nil)
        #expect(record.url == nil)
        #expect(record.fields["date"] == value)
    }

    @Test("the option is read from an object and rejects unknown targets with a suggestion")
    func option() throws {
        let mapping = try FieldMapping(option: ["title": "name", "date": "createdAt"], path: "p.fields")
        #expect(mapping == FieldMapping([.title: "name", .date: "createdAt"]))

        #expect(throws: ManifestError([
            ManifestProblem(path: "p.fields.titel", message: "unknown field (did you mean 'title'?); mappable fields: title, id, date, url"),
            ManifestProblem(path: "p.fields.url", message: "expected a field name (a string), found an integer"),
        ])) {
            try FieldMapping(option: ["titel": "name", "url": 3], path: "p.fields")
        }
        #expect(throws: ManifestError(path: "p.fields", "expected an object, found an array")) {
            try FieldMapping(option: ["name"], path: "p.fields")
        }
    }
}
