import Domain
import FilesProvider
import Foundation
import ProviderKit
import Testing

@Suite("Files provider options")
struct FilesProviderTests {
    @Test("valid options build a source")
    func valid() {
        #expect(SourceRunner.problems(["paths": ["a/*.csv"], "format": "csv", "delimiter": "\t",
                                       "fields": ["title": "name"]]).isEmpty)
    }

    static let invalidOptions: [(options: JSONValue, problem: String)] = [
        (JSONValue.object([:]), "sources[0].options.paths: required option is missing (an array of glob patterns such as [\"data/*.csv\"])"),
        (["paths": "data/*.csv"], "sources[0].options.paths: expected an array of strings, found a string"),
        (["paths": []], "sources[0].options.paths: expected at least one glob pattern"),
        (["paths": ["ok/*.csv", 3]], "sources[0].options.paths[1]: expected a string, found an integer"),
        (["paths": [""]], "sources[0].options.paths[0]: expected a glob pattern, found an empty string"),
        (["paths": ["a"], "format": "ndjsn"], "sources[0].options.format: 'ndjsn' is not one of auto, json, ndjson, csv (did you mean 'ndjson'?)"),
        (["paths": ["a"], "format": 1], "sources[0].options.format: expected a string, found an integer"),
        (["paths": ["a"], "delimiter": ";;"], "sources[0].options.delimiter: expected one ASCII character other than a quote or a line break, found \";;\""),
        (["paths": ["a"], "delimiter": "\""], "sources[0].options.delimiter: expected one ASCII character other than a quote or a line break, found \"\"\""),
        (["paths": ["a"], "fields": ["date": "created", "link": "href"]], "sources[0].options.fields.link: unknown field; mappable fields: title, id, date, url"),
        (["paths": ["a"], "fields": ["titel": "name"]], "sources[0].options.fields.titel: unknown field (did you mean 'title'?); mappable fields: title, id, date, url"),
        (["paths": ["a"], "path": ["b"]], "sources[0].options.path: unknown option (did you mean 'paths'?); this provider accepts: paths, format, fields, delimiter"),
        ("data/*.csv", "sources[0].options: expected an object, found a string"),
        ]

    @Test("each wrong option is reported with its JSON path", arguments: invalidOptions)
    func invalid(options: JSONValue, problem: String) {
        #expect(SourceRunner.problems(options).contains(problem), "\(SourceRunner.problems(options))")
    }

    @Test("every problem is reported at once")
    func allProblems() {
        let problems = SourceRunner.problems(["paths": 3, "format": "xml", "delimitter": ","])
        #expect(problems.count == 3)
        #expect(problems.map { $0.components(separatedBy: ":")[0] } == [
            "sources[0].options.paths", "sources[0].options.format", "sources[0].options.delimitter",
        ])
    }

    @Test("an added reader's format becomes a valid format value")
    func extraFormat() {
        struct FeedStub: RecordFileReader {
            let format = "feed"
            let fileExtensions = ["rss", "atom", "xml"]
            func readRows(at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void) throws(SourceError) {}
        }
        let provider = FilesProvider(additionalReaders: [FeedStub()])
        #expect(SourceRunner.problems(["paths": ["a.rss"], "format": "feed"], provider: provider).isEmpty)
        #expect(SourceRunner.problems(["paths": ["a.rss"], "format": "feed"]) == [
            "sources[0].options.format: 'feed' is not one of auto, json, ndjson, csv",
        ])
    }

    @Test("the provider describes itself for `aggregate providers`")
    func description() {
        let provider = FilesProvider()
        #expect(provider.name == "files")
        #expect(provider.options.map(\.name) == ["paths", "format", "fields", "delimiter"])
        #expect(provider.options.first?.required == true)
    }
}
