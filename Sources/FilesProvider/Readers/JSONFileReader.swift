import Domain
import Foundation

/// A JSON document (`.json`) read whole: JSON text cannot be split safely without parsing it all.
///
/// Accepted shapes, in this order:
/// 1. an array of objects: one row per element;
/// 2. an object with exactly one member that is an array: that array (`{"notes": […]}`);
/// 3. an object whose `items`, `data`, `records` or `results` member (first present, in that order) is an
///    array: that array (API envelopes such as `{"page": 1, "results": […]}`).
/// Anything else is a parse error naming the shape found.
public struct JSONFileReader: RecordFileReader {
    public let format = "json"
    public let fileExtensions = ["json"]

    /// The envelope keys looked for when an object has several array members.
    static let envelopeKeys = ["items", "data", "records", "results"]

    public init() {}

    public func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        let bytes = try FileInput(url: url).readAll()
        if cancellation.isCancelled { throw .cancelled }
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(SourceError) in try Self.rows(in: buffer, cancellation: cancellation, row: row) }
        }
        try result.get()
    }

    private static func rows(
        in bytes: UnsafeBufferPointer<UInt8>, cancellation: CancellationToken,
        row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        var parser = JSONParser(bytes)
        var count = 0
        // A top-level array is handed over element by element, so the file is not held twice.
        let streamed = try parser.forEachTopLevelElement { (value, line) throws(SourceError) in
            count += 1
            if count % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            try row(try objectRow(value, line: line, what: "each array element"))
        }
        if streamed { return }

        var document = JSONParser(bytes)
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try document.parseDocument()
        } catch {
            throw error.sourceError
        }
        guard case .object(let members) = value else {
            throw SourceError(.parse, "expected an array of objects or an object holding one, found \(value.typeName)")
        }
        let arrays = members.filter { $0.value.arrayValue != nil }
        let key = arrays.count == 1 ? arrays.first!.key : envelopeKeys.first { arrays[$0] != nil }
        guard let key, case .array(let elements) = members[key] else {
            let found = arrays.isEmpty ? "no array member" : "array members \(arrays.keys.sorted().joined(separator: ", "))"
            throw SourceError(.parse, "expected an array of objects, or an object with one array member or an "
                + "\(envelopeKeys.joined(separator: "/")) array; found an object with \(found)")
        }
        for (index, element) in elements.enumerated() {
            if (index + 1) % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
            guard case .object(let fields) = element else {
                throw SourceError(.parse, "\(key)[\(index)]: expected a JSON object, found \(element.typeName)")
            }
            // Line numbers of nested elements are not tracked; the element's position identifies it instead.
            try row(FileRow(fields: fields, line: index + 1))
        }
    }
}
