import Domain
import Foundation

/// What a program's stdout means to the one who runs it: records, a line at a time (the exec provider's item and
/// Singer messages). A run without one (an exec sink's program) logs its stdout instead.
public protocol ProgramOutputParsing: Sendable {
    /// Reads line `number` (1-based, blank lines counted so numbers match an editor's); a record, or nil.
    mutating func consume(_ line: Data, number: Int) -> Record?
    /// Warnings for the run's caller once the program has finished.
    var warnings: [String] { get }
    /// The failure to report when some lines were unusable; the usable ones were delivered all the same.
    var parseError: SourceError? { get }
    /// A line for the log (info level) once the program has finished, about what was read and ignored.
    var logSummary: String? { get }
}
