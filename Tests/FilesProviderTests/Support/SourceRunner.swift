import Domain
import FilesProvider
import Foundation
import ProviderKit
import ProviderTesting
import Testing

/// Builds a `files` source from options, as the composition root would, and runs it to completion.
enum SourceRunner {
    static func configuration(_ options: JSONValue, in directory: URL, concurrency: Int = 4) -> SourceConfiguration {
        SourceConfiguration(
            id: "files", options: options, optionsPath: "sources[0].options", baseDirectory: directory,
            timeoutSeconds: 60, concurrency: concurrency)
    }

    /// The source's report after a run through the Domain's aggregate use case (real fan-out, real policy).
    static func run(
        _ options: JSONValue, in directory: URL, provider: FilesProvider = FilesProvider()
    ) async throws -> SourceReport {
        let source = try provider.makeSource(configuration(options, in: directory))
        return await ProviderTesting.SourceRunner.run(source, id: "files", provider: "files", timeoutSeconds: 60)
    }

    /// The problems `makeSource` reports for `options` (empty when valid).
    static func problems(_ options: JSONValue, provider: FilesProvider = FilesProvider()) -> [String] {
        provider.optionProblems(configuration(options, in: URL(fileURLWithPath: "/tmp"))).map(\.description)
    }
}

/// Reads every row of a file with a reader, collecting them (tests only; the repository streams).
func readAllRows(_ reader: some RecordFileReader, at url: URL, cancellation: CancellationToken = CancellationToken())
    throws(SourceError) -> [FileRow]
{
    var rows: [FileRow] = []
    try reader.readRows(at: url, cancellation: cancellation) { rows.append($0) }
    return rows
}

/// The source error a throwing read ends with, or nil when it succeeded (any other error fails the test).
func readError(_ work: () throws -> Void) -> SourceError? {
    do {
        try work()
        return nil
    } catch let error as SourceError {
        return error
    } catch {
        Issue.record("unexpected error: \(error)")
        return nil
    }
}
