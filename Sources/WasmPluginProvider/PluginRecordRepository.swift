import Domain
import Foundation
import Logging
import Synchronization

/// Records from one run of a plugin: its module instantiated on a thread of its own (a plugin run is CPU work;
/// the pool's threads are never held for it), the input written, `aggregate_run` called.
///
/// The source ends when the plugin returns or when its time runs out, whichever is first. WasmKit cannot stop a
/// running guest from another thread: at the deadline the source fails with a timeout at once, every later host
/// call of the plugin fails, and the guest holds no more fuel than the time left was worth (`PluginFuelBudget`), so
/// a loop that calls nothing stops about then too; nothing it produces after the deadline is delivered.
struct PluginRecordRepository: RecordStreamRepository {
    let plugin: PluginDeclaration
    let modules: PluginModuleCache
    let sourceID: String
    let input: [UInt8]
    let limits: PluginRun.Limits
    /// The source's `timeoutSeconds`: each run's deadline, turned into fuel.
    let timeoutSeconds: Double
    let credentials: [String: String]
    let http: @Sendable (CancellationToken) -> PluginHTTPBridge
    let stateStore: (any PluginStateStoring)?
    let logger: Logger

    /// Records are handed on in batches of this many (and at the end).
    static let batchSize = 256

    func streamRecords(
        cancellation: CancellationToken, lingering: LingeringWork,
        onRecords: @escaping @Sendable ([Record]) -> Void,
        onWarning: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        let runLimits = limits.until(timeoutSeconds.isFinite && timeoutSeconds < 1e9 ? .now + .seconds(max(0, timeoutSeconds)) : nil)
        let delivery = PluginDelivery(onRecords: onRecords, onWarning: onWarning, completion: completion)
        let handler = cancellation.onCancel {
            delivery.finish(PluginFailure.timedOut.sourceError(plugin: plugin.name))
        }
        let thread = Thread { [self] in
            let failure = run(limits: runLimits, cancellation: cancellation, delivery: delivery)
            cancellation.removeHandler(handler)
            delivery.finish(failure?.sourceError(plugin: plugin.name))
        }
        thread.name = "aggregate.plugin.\(plugin.name)"
        // The interpreter keeps the guest's stack on the heap; host calls and JSON need little of this one.
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func run(limits: PluginRun.Limits, cancellation: CancellationToken, delivery: PluginDelivery) -> PluginFailure? {
        let loaded: LoadedPluginModule
        do throws(PluginFailure) {
            loaded = try modules.module(at: plugin.module)
        } catch {
            return error
        }
        let state = PluginState(stateStore?.load(plugin: plugin.name, source: sourceID) ?? [:])
        var batch: [Record] = []
        var events = PluginRun.Events()
        events.onRecord = { record in
            batch.append(record)
            if batch.count >= Self.batchSize {
                delivery.records(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        events.onWarning = { delivery.warning("plugin '\(plugin.name)': \($0)") }
        events.onLog = { [logger, plugin] level, message in
            let text = "plugin '\(plugin.name)': \(message)"
            level >= 2 ? logger.warning("\(text)") : level == 1 ? logger.info("\(text)") : logger.debug("\(text)")
        }
        let pluginRun = PluginRun(
            plugin: plugin, limits: limits, http: http(cancellation), state: state, cancellation: cancellation,
            events: events)
        let started = ContinuousClock.now
        let failure = pluginRun.execute(loaded.module, entry: .run, input: input)
        logger.info("plugin '\(plugin.name)': source \(sourceID) used \(pluginRun.fuelUsed) fuel in \(ContinuousClock.now - started)")
        if !batch.isEmpty { delivery.records(batch) }
        if failure == nil, state.changed { stateStore?.save(state.values, plugin: plugin.name, source: sourceID) }
        return failure
    }
}

/// Hands a run's batches, warnings and its one completion on, in order, and nothing after the completion: the
/// deadline may complete the source while the plugin's thread still runs.
final class PluginDelivery: Sendable {
    private let queue = DispatchQueue(label: "aggregate.plugin.delivery")
    private let onRecords: @Sendable ([Record]) -> Void
    private let onWarning: @Sendable (String) -> Void
    private let completion: @Sendable (SourceError?) -> Void
    /// Read and written on `queue` only.
    private let finished = Mutex(false)

    init(
        onRecords: @escaping @Sendable ([Record]) -> Void, onWarning: @escaping @Sendable (String) -> Void,
        completion: @escaping @Sendable (SourceError?) -> Void
    ) {
        self.onRecords = onRecords
        self.onWarning = onWarning
        self.completion = completion
    }

    func records(_ records: [Record]) {
        queue.async { [self] in if !isFinished { onRecords(records) } }
    }

    func warning(_ message: String) {
        queue.async { [self] in if !isFinished { onWarning(message) } }
    }

    func finish(_ error: SourceError?) {
        queue.async { [self] in
            guard !finished.withLock({ let was = $0; $0 = true; return was }) else { return }
            completion(error)
        }
    }

    private var isFinished: Bool { finished.withLock { $0 } }
}
