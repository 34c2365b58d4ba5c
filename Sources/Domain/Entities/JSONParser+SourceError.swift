import Foundation

extension JSONParser.Failure {
    /// As a source error about a whole JSON file: `line 3: invalid JSON: … (column 7)`.
    package var sourceError: SourceError {
        SourceError(.parse, "line \(line): invalid JSON: \(message) (column \(column))")
    }
}
