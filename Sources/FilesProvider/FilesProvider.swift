import Domain
import Foundation
import ProviderKit

/// `"provider": "files"`: records from local JSON, NDJSON and CSV files matched by glob patterns.
///
/// ```json
/// { "id": "notes", "provider": "files",
///   "options": { "paths": ["Examples/data/*.json", "Examples/data/*.csv"],
///                "fields": { "title": "name", "date": "createdAt" } } }
/// ```
/// Other formats plug in as `RecordFileReader`s (the feed reader for `.rss`/`.atom`/`.rdf`/`.xml` and any file
/// that starts like XML), passed by the composition root; their `format` names become valid `format` values,
/// their extensions are detected, and so is content they recognise.
public struct FilesProvider {
    private let additionalReaders: [any RecordFileReader]

    public init(additionalReaders: [any RecordFileReader] = []) {
        self.additionalReaders = additionalReaders
    }

    private var builtInFormats: [String] { ["json", "ndjson", "csv"] }

    private var formats: [String] {
        ["auto"] + builtInFormats + additionalReaders.map(\.format).filter { !builtInFormats.contains($0) }
    }
}

extension FilesProvider: Provider {
    public var name: String { "files" }

    public var isLocal: Bool { true }

    public var summary: String { "Records from local JSON, NDJSON and CSV files (glob patterns)" }

    public var options: [OptionSpec] {
        [
            OptionSpec(
                "paths", "array of strings", required: true,
                identity: .local, help: "Glob patterns (*, ?, [abc]) relative to the manifest's directory; files are read in pattern order, each pattern's matches sorted"),
            OptionSpec(
                "format", "string", default: "auto",
                help: "One of \(formats.joined(separator: ", ")); auto picks by extension: .json, .ndjson/.jsonl, .csv"
                    + (additionalReaders.isEmpty ? "" : ", " + additionalReaders.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: "/")
                        + ", and by content where a format can tell (a feed under any name)")),
            OptionSpec(
                "fields", "object", default: "title ← title/name/subject, id ← id/uuid/key, date ← date/createdAt/updated/timestamp, url ← url/link/href",
                help: "Which field becomes the item's title, id, date and url, e.g. {\"title\": \"name\", \"date\": \"createdAt\"}"),
            OptionSpec(
                "delimiter", "string", default: ",",
                help: "CSV field delimiter: one ASCII character such as \";\" or \"\\t\""),
        ]
    }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let patterns = readPatterns(reader)
        let format = readFormat(reader)
        let mapping = reader.value("fields", as: FieldMapping.self) ?? FieldMapping()
        let delimiter = readDelimiter(reader)
        try reader.finish()

        let readers: [any RecordFileReader] =
            [JSONFileReader(), NDJSONFileReader(), CSVFileReader(delimiter: delimiter)] + additionalReaders
        let repository = FileRecordRepository(
            patterns: patterns.map(configuration.resolvePath), baseDirectory: configuration.baseDirectory,
            format: format == "auto" ? nil : format, readers: readers, mapping: mapping)
        return ReadRecordsUseCase(repository: repository)
    }

    // MARK: - Options

    private func readPatterns(_ reader: OptionsReader) -> [String] {
        guard reader.has("paths") else {
            reader.problem("paths", "required option is missing (an array of glob patterns such as [\"data/*.csv\"])")
            return []
        }
        guard let raw = reader.value("paths", as: JSONValue.self), case .array(let values) = raw else {
            let found = reader.value("paths", as: JSONValue.self)?.typeName ?? "nothing"
            reader.problem("paths", "expected an array of strings, found \(found)")
            return []
        }
        if values.isEmpty { reader.problem("paths", "expected at least one glob pattern") }
        var patterns: [String] = []
        for (index, value) in values.enumerated() {
            guard case .string(let pattern) = value, !pattern.isEmpty else {
                reader.problem("paths[\(index)]", value.stringValue == nil
                    ? "expected a string, found \(value.typeName)" : "expected a glob pattern, found an empty string")
                continue
            }
            patterns.append(pattern)
        }
        return patterns
    }

    private func readFormat(_ reader: OptionsReader) -> String {
        guard let format = reader.value("format", as: String.self) else { return "auto" }
        guard formats.contains(format) else {
            reader.problem("format", "'\(format)' is not one of \(formats.joined(separator: ", "))\(Suggestion.didYouMean(format, in: formats))")
            return "auto"
        }
        return format
    }

    private func readDelimiter(_ reader: OptionsReader) -> UInt8 {
        guard let text = reader.value("delimiter", as: String.self) else { return UInt8(ascii: ",") }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 1, scalars[0].isASCII, !"\"\r\n".unicodeScalars.contains(scalars[0]) else {
            reader.problem("delimiter", "expected one ASCII character other than a quote or a line break, found \"\(text)\"")
            return UInt8(ascii: ",")
        }
        return UInt8(scalars[0].value)
    }
}
