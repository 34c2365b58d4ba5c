import Domain
import Foundation

/// What a run looks like right now: one row per source in manifest order. The view model's output.
public struct AggregateViewState: Sendable, Equatable {
    /// Manifest order, whatever order the sources finish in.
    public var rows: [SourceRow]
    /// True once the run started and every source finished.
    public var isFinished: Bool

    public init(rows: [SourceRow] = [], isFinished: Bool = false) {
        self.rows = rows
        self.isFinished = isFinished
    }
}

/// One source's progress.
public struct SourceRow: Sendable, Equatable {
    /// Loading until the source's report arrives, then how it ended.
    public enum Phase: Sendable, Equatable {
        case loading
        case finished(SourceStatus)
    }

    public var id: String
    public var provider: String
    public var phase: Phase
    /// Items delivered so far; once finished, the items in its report.
    public var itemCount: Int
    /// Set when finished.
    public var duration: TimeInterval?
    /// For people: the error as `kind: message`, or why the source was skipped.
    public var message: String?

    public init(
        id: String, provider: String, phase: Phase = .loading, itemCount: Int = 0, duration: TimeInterval? = nil,
        message: String? = nil
    ) {
        self.id = id
        self.provider = provider
        self.phase = phase
        self.itemCount = itemCount
        self.duration = duration
        self.message = message
    }

    public var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }
}

extension SourceRow {
    /// The row for a finished source.
    init(report: SourceReport) {
        self.init(
            id: report.id, provider: report.descriptor.provider, phase: .finished(report.status),
            itemCount: report.itemCount, duration: report.duration,
            message: SourceSummary.problems(of: report).first)
    }
}
