import Domain
import Foundation
import Processes

/// Turns a program's stdout lines into records, remembering Singer schemas and tallying what it skipped.
///
/// A bad line does not stop the parse: the lines around it still become records, and `parseError`
/// reports the first bad line's number at the end.
struct ProgramOutputParser: ProgramOutputParsing {
    private var keyProperties: [String: [String]] = [:]
    private var unknownTypes: [(type: String, count: Int, firstLine: Int)] = []
    private var firstInvalid: (line: Int, reason: String)?
    private(set) var invalidLineCount = 0
    private(set) var recordCount = 0
    private(set) var stateCount = 0

    /// Reads line `number` (1-based, blank lines counted so numbers match an editor's).
    mutating func consume(_ line: Data, number: Int) -> Record? {
        var line = line
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return nil }
        do throws(ProgramLineError) {
            switch try ProgramMessageDTO(line: line) {
            case .item(let item):
                let record = try item.toDomain(lineNumber: number)
                recordCount += 1
                return record
            case .record(let record):
                recordCount += 1
                return record.toDomain(keyProperties: keyProperties[record.stream] ?? [], lineNumber: number)
            case .schema(let stream, let keys):
                keyProperties[stream] = keys
            case .state:
                stateCount += 1
            case .unknown(let type):
                if let index = unknownTypes.firstIndex(where: { $0.type == type }) {
                    unknownTypes[index].count += 1
                } else {
                    unknownTypes.append((type, 1, number))
                }
            }
        } catch {
            invalidLineCount += 1
            if firstInvalid == nil { firstInvalid = (number, error.reason) }
        }
        return nil
    }

    /// One warning per unknown message type (not one per line: a tap may send thousands).
    var warnings: [String] {
        unknownTypes.map { entry in
            let lines = entry.count == 1 ? "line \(entry.firstLine)" : "\(entry.count) lines from line \(entry.firstLine)"
            return "ignored message type '\(entry.type)' (\(lines))"
        }
    }

    /// The failure to report when some lines were unusable; the usable ones were delivered all the same.
    var parseError: SourceError? {
        guard let firstInvalid else { return nil }
        let others = invalidLineCount > 1 ? " (\(invalidLineCount) invalid lines in all)" : ""
        return SourceError(.parse, "stdout line \(firstInvalid.line): \(firstInvalid.reason)\(others); \(recordCount) valid records kept")
    }

    /// Singer STATE messages are read and ignored: said once, in the log.
    var logSummary: String? {
        stateCount > 0 ? "ignored \(stateCount) Singer STATE message(s)" : nil
    }
}
