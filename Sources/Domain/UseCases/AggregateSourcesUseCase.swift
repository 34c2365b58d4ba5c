import Dispatch
import Foundation
import Synchronization

/// A source the run will consider, with what to do about it.
public struct PlannedSource: Sendable {
    /// What the run does with the source.
    public enum Plan: Sendable {
        /// Load it with this source.
        case load(any ItemSource)
        /// Not run; `error` set when the skip is a problem (a missing variable), nil when expected (disabled).
        case skip(reason: String, error: SourceError?)
        /// Not run because it cannot be: reported as an error without trying (a source the user named
        /// explicitly whose settings are incomplete).
        case fail(SourceError)
    }

    /// Which source, with its limits.
    public var descriptor: SourceDescriptor
    /// Load it, skip it, or report it failed.
    public var plan: Plan

    /// A source and its plan.
    public init(descriptor: SourceDescriptor, plan: Plan) {
        self.descriptor = descriptor
        self.plan = plan
    }
}

/// Told about the run as it happens, from any thread; drives live progress.
public protocol AggregateObserver: Sendable {
    /// The run starts, with every source it will report, in manifest order.
    func aggregateDidStart(_ sources: [SourceDescriptor])
    /// Source `id` delivered `itemCount` more items.
    func source(_ id: String, didDeliver itemCount: Int)
    /// A source is done (loaded, failed, timed out or skipped).
    func sourceDidFinish(_ report: SourceReport)
}

/// Loads every planned source concurrently (DispatchGroup) and reports them in plan order.
///
/// At most `maxLoading` sources load at once; the others start in plan order as earlier ones finish, and a
/// source's clock starts when it does (its timeout measures the source, not the queue; the run's deadline
/// still holds for all).
///
/// Each source gets its own timeout and the run an overall deadline; a source still loading then is
/// reported `timeout` with the items it delivered so far, and the others are unaffected. Cancelling the
/// run (`cancellation`: Ctrl-C) does the same to every source still loading.
///
/// Items are kept in each source's report, or handed to an `ItemStream` as they arrive for the sources it
/// streams.
public struct AggregateSourcesUseCase: Sendable {
    /// What the sources' timeouts and the run's deadline are measured on.
    private let clock: any TimerClock

    /// The use case, on the system's clock; it keeps no state between runs.
    public init() { clock = SystemClock() }

    /// The use case with its timeouts, deadlines and durations on `clock` (a test's `TestClock`).
    public init(clock: any TimerClock) { self.clock = clock }

    /// - Parameters:
    ///   - sources: every source of the run with its plan, in manifest order.
    ///   - deadlineSeconds: the whole run's time (`--deadline`); sources still loading then time out.
    ///   - cancellation: ends the run early (Ctrl-C): every source still loading is
    ///     reported `timeout` and stopped.
    ///   - observer: told about the run as it happens (live progress), from any thread.
    ///   - stream: takes every source's items as they arrive; nil keeps them in the reports.
    ///   - maxLoading: the most sources loading at once (nil: every one at once).
    ///   - completion: the reports in plan order, once every source is done and what they started is gone.
    public func execute(
        _ sources: [PlannedSource], deadlineSeconds: Double? = nil, cancellation: CancellationToken? = nil,
        observer: (any AggregateObserver)? = nil, stream: (any ItemStream)? = nil, maxLoading: Int? = nil,
        completion: @escaping @Sendable (AggregateReport) -> Void
    ) {
        execute(
            sources, deadlineSeconds: deadlineSeconds, cancellation: cancellation, observer: observer, stream: stream,
            admission: maxLoading.map(Admission.init(limit:)), completion: completion)
    }

    /// `execute(_:deadlineSeconds:cancellation:observer:stream:maxLoading:completion:)` with the sources admitted
    /// by `admission`, which other runs may share: the limit then holds for all of them together (a source is
    /// admitted in plan order, and holds its place until the stream released its items). A source waiting for a
    /// place another run holds starts when that place frees, and only then reports a cancellation or a deadline of
    /// its run that came meanwhile.
    public func execute(
        _ sources: [PlannedSource], deadlineSeconds: Double? = nil, cancellation: CancellationToken? = nil,
        observer: (any AggregateObserver)? = nil, stream: (any ItemStream)? = nil, admission: Admission?,
        completion: @escaping @Sendable (AggregateReport) -> Void
    ) {
        let startedAt = clock.now
        let runStart = clock.uptime
        let runDeadline = deadlineSeconds.map { runStart + $0 }
        let reports = Mutex([SourceReport?](repeating: nil, count: sources.count))
        let group = DispatchGroup()
        let lingering = LingeringWork()
        observer?.aggregateDidStart(sources.map(\.descriptor))

        for (index, source) in sources.enumerated() {
            group.enter()
            // `released`: the stream let go of the source's items (a loaded source's admission ends then).
            let finish: @Sendable (SourceReport, _ released: @escaping @Sendable () -> Void) -> Void = { report, released in
                reports.withLock { $0[index] = report }
                if let stream { stream.source(at: index, didFinish: report, released: released) } else { released() }
                observer?.sourceDidFinish(report)
                group.leave()
            }
            switch source.plan {
            case .skip(let reason, let error):
                // When the skip is a problem its error already says why; don't say it twice.
                let message = reason == error?.message ? nil : reason
                finish(SourceReport(descriptor: source.descriptor, status: .skipped, error: error, message: message), {})
            case .fail(let error):
                finish(SourceReport(descriptor: source.descriptor, status: .error, error: error), {})
            case .load(let itemSource):
                let streamed = stream.map { stream in
                    { @Sendable (items: [Item], pastCap: Bool) in
                        if pastCap {
                            stream.source(at: index, source.descriptor, didEmitPastCap: items)
                        } else {
                            stream.source(at: index, source.descriptor, didEmit: items)
                        }
                    }
                }
                let loaded: @Sendable (SourceReport) -> Void = { report in
                    finish(report) { admission?.end() }
                }
                let start: @Sendable () -> Void = {
                    // Until `load` has returned, what the source starts may not yet be registered as lingering:
                    // a deadline firing meanwhile must not complete the run before it is.
                    let starting = lingering.begin()
                    DispatchQueue.global().async { [clock] in
                        Self.load(
                            itemSource, source.descriptor, runDeadline: runDeadline, runCancellation: cancellation,
                            lingering: lingering, observer: observer, streamed: streamed, clock: clock, finish: loaded)
                        starting()
                    }
                }
                if let admission { admission.start(start) } else { start() }
            }
        }
        // Complete only once what the sources started is gone too (a timed-out program's process group).
        group.notify(queue: .global()) {
            lingering.notify(queue: .global()) {
                completion(AggregateReport(generatedAt: startedAt, sources: reports.withLock { $0.map { $0! } }))
            }
        }
    }

    /// Runs `execute` and suspends until it is done: for callers in Swift concurrency (tests),
    /// where a blocking wait would hold a thread of the shared pool.
    public func execute(
        _ sources: [PlannedSource], deadlineSeconds: Double? = nil, cancellation: CancellationToken? = nil,
        observer: (any AggregateObserver)? = nil, stream: (any ItemStream)? = nil, maxLoading: Int? = nil
    ) async -> AggregateReport {
        await withCheckedContinuation { continuation in
            execute(
                sources, deadlineSeconds: deadlineSeconds, cancellation: cancellation, observer: observer, stream: stream,
                maxLoading: maxLoading
            ) {
                continuation.resume(returning: $0)
            }
        }
    }

    /// - Parameter streamed: where the source's batches go when they are streamed rather than kept (`pastCap`:
    ///   a batch past the source's display cap; without a stream those are not kept, the source's warning
    ///   counts them).
    private static func load(
        _ itemSource: any ItemSource, _ descriptor: SourceDescriptor, runDeadline: DispatchTime?,
        runCancellation: CancellationToken?, lingering: LingeringWork,
        observer: (any AggregateObserver)?, streamed: (@Sendable (_ items: [Item], _ pastCap: Bool) -> Void)?,
        clock: any TimerClock, finish: @escaping @Sendable (SourceReport) -> Void
    ) {
        let start = clock.uptime
        let sourceDeadline = start + descriptor.timeoutSeconds
        let deadline = min(sourceDeadline, runDeadline ?? sourceDeadline)
        let delivered = Mutex<(items: [Item], streamedCount: Int)>(([], 0))
        // A request waiting for the run's limit on requests in flight pauses the source's clock (`pauseDeadline`);
        // the run's deadline still holds.
        let cancellation = CancellationToken(deadline: deadline, latest: runDeadline, clock: clock)
        /// Set below: what the source's end releases (the timeout timer's hold on the receiver).
        let finished = Mutex<@Sendable () -> Void>({})
        // The run's token may outlive this source (a watch): its handler goes once the source finished.
        let runHandler = Mutex<(registration: Int?, sourceFinished: Bool)>((nil, false))
        let forgetRunHandler: @Sendable () -> Void = {
            let registration = runHandler.withLock { state -> Int? in
                state.sourceFinished = true
                defer { state.registration = nil }
                return state.registration
            }
            if let registration { runCancellation?.removeHandler(registration) }
        }

        // Waiting for the output to take a batch (a reader of stdout that is slower than the source, the store
        // recording history) is the run's doing, not the source's: its clock stops meanwhile, as for a request
        // slot. Otherwise `aggregate -f ndjson | less` timed out every source the reader had not caught up with.
        let stream = streamed.map { streamed in
            { @Sendable (items: [Item], pastCap: Bool) in
                let resume = cancellation.pauseDeadline()
                defer { resume() }
                streamed(items, pastCap)
            }
        }
        let receiver = ItemReceiver(
            onItems: { batch in
                let count = delivered.withLock { delivered in
                    if stream == nil {
                        delivered.items.append(contentsOf: batch)
                    } else {
                        delivered.streamedCount += batch.count
                    }
                    return delivered.items.count + delivered.streamedCount
                }
                stream?(batch, false)
                observer?.source(descriptor.id, didDeliver: count)
            },
            onPastCap: { batch in stream?(batch, true) },
            onFinish: { outcome, warnings in
                forgetRunHandler()
                finished.withLock { $0 }()
                let duration = clock.seconds(since: start)
                let (items, streamedCount) = delivered.withLock { $0 }
                var report = SourceReport(
                    descriptor: descriptor, status: .ok, items: items, warnings: warnings, duration: duration)
                report.streamedItemCount = streamedCount
                switch outcome {
                case .completed: break
                case .failed(let error): (report.status, report.error) = (.error, error)
                case .timedOut(let error): (report.status, report.error) = (.timeout, error)
                }
                finish(report)
            })

        // The timer stays queued until its deadline even when the source finished long before (a watch runs
        // many short runs): it holds only this box, which lets go of the receiver once the source finished.
        let timeoutTarget = Mutex<ItemReceiver?>(receiver)
        finished.withLock { $0 = { timeoutTarget.withLock { $0 = nil } } }
        @Sendable func timeOut(at deadline: DispatchTime) {
            clock.wake(at: deadline) {
                guard let receiver = timeoutTarget.withLock({ $0 }) else { return }
                // Paused meanwhile: the source has time left.
                if let later = cancellation.nextCheck(afterFiringAt: deadline) { return timeOut(at: later) }
                let cutByRun = runDeadline.map { $0 <= deadline } ?? false
                let message = cutByRun
                    ? "the run's deadline passed before this source finished"
                    : "no answer within \(JSONValue.double(descriptor.timeoutSeconds).displayText) s"
                if receiver.close(.timedOut(SourceError(.timeout, message))) {
                    cancellation.cancel()
                }
            }
        }
        timeOut(at: deadline)
        if let runCancellation {
            let registration = runCancellation.onCancel {
                if receiver.close(.timedOut(SourceError(.timeout, "the run was cancelled before this source finished"))) {
                    cancellation.cancel()
                }
            }
            let finishedAlready = runHandler.withLock { state -> Bool in
                if !state.sourceFinished { state.registration = registration }
                return state.sourceFinished
            }
            if finishedAlready { runCancellation.removeHandler(registration) }
        }
        itemSource.load(
            LoadContext(concurrency: descriptor.concurrency, cancellation: cancellation, lingering: lingering), into: receiver)
    }
}
