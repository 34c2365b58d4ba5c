import Domain
import Foundation

/// How a finished program run reads as the source's result: its error, if any, and its warnings.
struct ProgramOutcome {
    var error: SourceError?
    var warnings: [String]
    /// The parser's line for the log (the Singer STATE messages it ignored).
    var logSummary: String?

    /// - Parameters:
    ///   - program: the program's name as messages show it, quoted.
    ///   - outputAbandonedAfter: the seconds after the exit when reading stopped because something the
    ///     program left running held its output; nil when the output closed by itself.
    ///   - leftoversStopped: the program exited normally leaving processes in its group, which were stopped.
    init(
        program: String, stopReason: ProgramLifecycle.StopReason?, termination: ChildProcess.Termination?,
        stderrSummary: String?, parser: (any ProgramOutputParsing)?, maxOutputBytes: Int, outputAbandonedAfter: Double?,
        leftoversStopped: Bool = false, timeoutText: String
    ) {
        let stderrText = stderrSummary.map { ": \($0)" } ?? ""
        switch stopReason {
        case .timeout?:
            error = SourceError(.timeout, "\(program) did not finish within \(timeoutText) s and was stopped\(stderrText)")
        case .cancelled?:
            error = SourceError(.timeout, "\(program) was stopped: the source's time is up")
        case .outputCap?:
            error = SourceError(
                .badResponse, "\(program) wrote more than \(maxOutputBytes) bytes to stdout (maxOutputBytes) and was stopped")
        case nil:
            if case .signalled(let signal)? = termination {
                error = SourceError(.io, "\(program) was killed by signal \(signal)\(stderrText)")
            } else if case .exited(let status)? = termination, status != 0 {
                let detail = stderrText.isEmpty ? " (nothing on stderr)" : stderrText
                error = SourceError(.io, "\(program) exited with status \(status)\(detail)")
            } else {
                error = parser?.parseError
            }
        }
        warnings = parser?.warnings ?? []
        if let seconds = outputAbandonedAfter {
            warnings.append("\(program) exited, but a process it left running kept its output open; "
                + "stopped reading \(JSONValue.double(seconds).displayText) s after the exit, and stopped that process")
        } else if leftoversStopped {
            warnings.append("\(program) exited, but left processes running in its process group; they were stopped")
        }
        logSummary = parser?.logSummary
    }
}
