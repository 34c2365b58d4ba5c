import Domain
import Foundation

/// A JSON document (`.json`), streamed: the array of records is read one element at a time
/// (`JSONElementStream`), so memory stays at a chunk plus the largest element, whatever the file's size.
///
/// Accepted shapes, in this order:
/// 1. an array of objects: one row per element, with the line it starts on;
/// 2. an object with exactly one member that is an array: that array (`{"notes": […]}`);
/// 3. an object whose `items`, `data`, `records` or `results` member (first present, in that order) is an
///    array: that array (API envelopes such as `{"page": 1, "results": […]}`).
/// Anything else is a parse error naming the shape found.
///
/// An object is read twice: once to find its array members (each element parsed and dropped, so the whole
/// document is checked as before), then again from the chosen array's `[`. An object in a file that cannot be
/// read twice (a pipe) is read whole instead.
public struct JSONFileReader: RecordFileReader {
    public let format = "json"
    public let fileExtensions = ["json"]

    /// The envelope keys looked for when an object has several array members.
    static let envelopeKeys = ["items", "data", "records", "results"]

    private let chunkSize: Int

    public init() {
        self.init(chunkSize: 1 << 20)
    }

    /// - Parameter chunkSize: the first read's size (tests use tiny ones so values straddle every boundary).
    init(chunkSize: Int) {
        self.chunkSize = chunkSize
    }

    public func readRows(
        at url: URL, cancellation: CancellationToken, row: (FileRow) throws(SourceError) -> Void
    ) throws(SourceError) {
        let stream = JSONElementStream(input: try FileInput(url: url), chunkSize: chunkSize)
        var count = 0
        let checked = { () throws(SourceError) in
            count += 1
            if count % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
        }
        switch try stream.start() {
        case UInt8(ascii: "["):
            _ = try stream.consume(UInt8(ascii: "["))
            var first = true
            while let (value, line) = try stream.nextElement(first: first) {
                first = false
                try checked()
                try row(try objectRow(value, line: line, what: "each array element"))
            }
            try stream.finish()
        case UInt8(ascii: "{") where !stream.isRegularFile:
            let value = try stream.value()
            try stream.finish()
            guard case .object(let members) = value else { return }
            let key = try Self.chosenKey(arrays: members.filter { $0.value.arrayValue != nil }.map(\.key))
            for (index, element) in (members[key]?.arrayValue ?? []).enumerated() {
                try checked()
                guard case .object(let fields) = element else {
                    throw SourceError(.parse, "\(key)[\(index)]: expected a JSON object, found \(element.typeName)")
                }
                try row(FileRow(fields: fields, line: index + 1))
            }
        case UInt8(ascii: "{"):
            let (key, mark) = try Self.chosenArray(in: stream, cancellation: cancellation)
            try stream.seek(to: mark)
            _ = try stream.consume(UInt8(ascii: "["))
            var index = 0
            while let (element, _) = try stream.nextElement(first: index == 0) {
                try checked()
                guard case .object(let fields) = element else {
                    throw SourceError(.parse, "\(key)[\(index)]: expected a JSON object, found \(element.typeName)")
                }
                // Line numbers of nested elements are not reported; the element's position identifies it instead.
                index += 1
                try row(FileRow(fields: fields, line: index))
            }
        default:
            let value = try stream.value()
            try stream.finish()
            throw SourceError(.parse, "expected an array of objects or an object holding one, found \(value.typeName)")
        }
    }

    /// The first pass over an object: its array members and where each starts (a later duplicate key wins), and
    /// the one the shape rules choose.
    private static func chosenArray(
        in stream: JSONElementStream, cancellation: CancellationToken
    ) throws(SourceError) -> (key: String, mark: JSONElementStream.Mark) {
        _ = try stream.consume(UInt8(ascii: "{"))
        var arrays: [String: JSONElementStream.Mark] = [:]
        var first = true
        var count = 0
        while let key = try stream.nextKey(first: first) {
            first = false
            if try stream.peek() == UInt8(ascii: "[") {
                arrays[key] = stream.mark
                _ = try stream.consume(UInt8(ascii: "["))
                var firstElement = true
                while try stream.nextElement(first: firstElement) != nil {
                    firstElement = false
                    count += 1
                    if count % cancellationCheckInterval == 0, cancellation.isCancelled { throw .cancelled }
                }
            } else {
                arrays[key] = nil
                _ = try stream.value()
            }
        }
        try stream.finish()
        let key = try chosenKey(arrays: Array(arrays.keys))
        return (key, arrays[key]!)
    }

    /// Of an object's array members, the one that holds the records.
    private static func chosenKey(arrays: [String]) throws(SourceError) -> String {
        if arrays.count == 1 { return arrays[0] }
        guard let key = envelopeKeys.first(where: arrays.contains) else {
            let found = arrays.isEmpty ? "no array member" : "array members \(arrays.sorted().joined(separator: ", "))"
            throw SourceError(.parse, "expected an array of objects, or an object with one array member or an "
                + "\(envelopeKeys.joined(separator: "/")) array; found an object with \(found)")
        }
        return key
    }
}
