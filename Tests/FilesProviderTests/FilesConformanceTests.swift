import Domain
import FilesProvider
import Foundation
import ProviderTesting
import Testing

/// The provider contract (ProviderTesting's conformance kit), where it applies to local files: there is no
/// server to stall or count requests at, and nothing secret in the options.
@Suite("files provider conformance", .serialized)
struct FilesConformanceTests {
    static let subject = ConformanceSubject.local(
        "files", provider: FilesProvider(), kind: .record, options: ["paths": ["events.ndjson", "tasks.csv", "notes.json"]],
        baseDirectory: Bundle.module.resourceURL!.appendingPathComponent("Fixtures"),
        failures: [
            .init("a pattern that matches nothing", options: ["paths": ["no-such-*.json"]], kind: .notFound),
            .init("a file whose format cannot be told", options: ["paths": ["SOURCES.md"]], kind: .configuration),
            .init("a CSV file read as JSON", options: ["paths": ["tasks.csv"], "format": "json"], kind: .parse),
        ],
        invalidOptions: [
            .init("an empty pattern", options: ["paths": ["a.json", ""]], path: "sources[0].options.paths[1]"),
            .init("a two-character delimiter", options: ["paths": ["a.csv"], "delimiter": ";;"], path: "sources[0].options.delimiter"),
        ])

    @Test("honours the provider contract", arguments: [ConformanceCheck.optionPaths, .errorTaxonomy, .stableItems])
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
