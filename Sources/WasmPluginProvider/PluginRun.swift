import Domain
import Foundation
import Synchronization
@_spi(Fuzzing) import WasmKit

/// One call into a plugin: a fresh instance of its module in a store of its own, on the calling thread (WasmKit's
/// `Store` is confined to one thread), from `aggregate_alloc` and the input to the entry's return.
///
/// Not Sendable: made, run and dropped on one thread. What crosses threads is the input (bytes) and what the
/// events hand on.
final class PluginRun {
    /// Which export is called.
    enum Entry: String {
        /// `aggregate_run`: the source's load.
        case run = "aggregate_run"
        /// `aggregate_check` (optional): option problems, emitted as `problem` messages.
        case check = "aggregate_check"
    }

    /// Where a run's messages go, on the run's thread, as they are emitted.
    struct Events {
        var onRecord: (Record) -> Void = { _ in }
        var onWarning: (String) -> Void = { _ in }
        var onProblem: (_ option: String?, _ message: String) -> Void = { _, _ in }
        var onLog: (_ level: Int32, _ message: String) -> Void = { _, _ in }
    }

    struct Limits {
        var fuel: UInt64
        var memoryPages: Int
        var maxOutputBytes: Int
        /// When the source's time runs out (nil: never, as for `aggregate_check`, which has little fuel).
        var deadline: ContinuousClock.Instant? = nil
        /// What the time left is worth in fuel (`PluginFuelBudget`).
        var fuelPerSecond: UInt64 = PluginRun.fuelPerSecond

        /// These limits with a deadline.
        func until(_ deadline: ContinuousClock.Instant?) -> Limits {
            var limits = self
            limits.deadline = deadline
            return limits
        }
    }

    /// The rate at which a source's time left is turned into fuel: a plugin gets no more fuel at a time than this
    /// many operators a second of what is left, so one that loops without calling the host stops at about its
    /// deadline. A faster machine burns its time's fuel before the deadline, a slower one after; a debug build's
    /// interpreter (WasmKit at -Onone, as the tests build it) gets a rate of its own. (The rates measured:
    /// BENCHMARKS.md, "WebAssembly plugins".)
    #if DEBUG
    static let fuelPerSecond: UInt64 = 1_000_000
    #else
    static let fuelPerSecond: UInt64 = 300_000_000
    #endif

    /// The process's engine: fuel metering on, shared by every run (it is Sendable; stores are per run).
    static let engine = Engine(configuration: EngineConfiguration(fuelMetering: true))

    let plugin: PluginDeclaration
    let limits: Limits
    let http: PluginHTTPBridge?
    let state: PluginState
    let cancellation: CancellationToken?
    var events: Events
    /// The clock the deadline is read on.
    let now: () -> ContinuousClock.Instant

    private var memory: CheckedGuestMemory?
    /// The run's store, while it runs: host calls give it its next slice of fuel.
    private var store: Store?
    private var fuel: PluginFuelBudget
    /// Bytes of `emit` and `log` so far, against `maxOutputBytes`.
    private var outputBytes = 0
    private var itemCount = 0
    /// What the last host call that answers with bytes left for `result_read`.
    private var pendingResult: [UInt8]?
    /// The first error the plugin emitted.
    private(set) var reportedError: SourceError?
    /// The fuel the last `execute` spent (for `--verbose`, and for choosing `plugins[].fuel`).
    private(set) var fuelUsed: UInt64 = 0

    init(
        plugin: PluginDeclaration, limits: Limits, http: PluginHTTPBridge?, state: PluginState,
        cancellation: CancellationToken?, events: Events = Events(),
        now: @escaping () -> ContinuousClock.Instant = { .now }
    ) {
        self.plugin = plugin
        self.limits = limits
        self.http = http
        self.state = state
        self.cancellation = cancellation
        self.events = events
        self.now = now
        fuel = PluginFuelBudget(declared: limits.fuel, fuelPerSecond: limits.fuelPerSecond)
    }

    /// Instantiates `module`, writes `input` into it and calls `entry`; nil when the plugin succeeded. A module
    /// without the optional `aggregate_check` succeeds a check at once.
    func execute(_ module: Module, entry: Entry, input: [UInt8]) -> PluginFailure? {
        if entry == .check, !module.exports.contains(where: { $0.name == Entry.check.rawValue }) { return nil }
        let store = Store(engine: Self.engine)
        let limiter = PluginMemoryLimiter(maxPages: limits.memoryPages)
        store.resourceLimiter = limiter
        store.fuel = Fuel(remaining: fuel.nextSlice(secondsLeft: secondsLeft, remaining: nil))
        self.store = store
        defer {
            fuelUsed = fuel.used(remaining: store.fuel?.remaining ?? 0)
            self.store = nil
        }
        do {
            let imports = try makeImports(for: module, store: store)
            let instance = try module.instantiate(store: store, imports: imports)
            guard let memory = instance.exports[memory: "memory"] else {
                throw PluginFailure.invalidModule("it exports no \"memory\"")
            }
            self.memory = CheckedGuestMemory(memory: memory)
            guard let alloc = instance.exports[function: "aggregate_alloc"] else {
                throw PluginFailure.invalidModule("it exports no \"aggregate_alloc\" function")
            }
            guard let call = instance.exports[function: entry.rawValue] else {
                throw PluginFailure.invalidModule("it exports no \"\(entry.rawValue)\" function")
            }
            let length = UInt32(input.count)
            let pointer = try Self.i32(alloc([.i32(length)]), from: "aggregate_alloc")
            if pointer == 0, length > 0 { throw PluginFailure.protocolViolation("aggregate_alloc(\(length)) returned 0") }
            try self.memory!.write(input, at: pointer, function: "the input (aggregate_alloc's answer)")
            let code = Int32(bitPattern: try Self.i32(call([.i32(pointer), .i32(length)]), from: entry.rawValue))
            if let reportedError { return .reported(reportedError.kind, reportedError.message) }
            return code == 0 ? nil : .failed(code: code)
        } catch let failure as PluginFailure {
            return failure
        } catch let exit as ProcessExit {
            if let reportedError { return .reported(reportedError.kind, reportedError.message) }
            return exit.code == 0 ? nil : .failed(code: Int32(bitPattern: exit.code))
        } catch {
            return classify(error, limiter: limiter)
        }
    }

    private static func i32(_ results: [Value], from function: String) throws(PluginFailure) -> UInt32 {
        guard results.count == 1, case .i32(let value) = results[0] else {
            throw .invalidModule("\(function) must return one i32")
        }
        return value
    }

    /// A WasmKit error as the plugin's failure: a trap, fuel, the memory limit, or a module that cannot be used.
    private func classify(_ error: any Error, limiter: PluginMemoryLimiter) -> PluginFailure {
        if let trap = error as? Trap {
            let text = trap.description.split(separator: "\n").first.map(String.init) ?? "trap"
            let reason = text.hasPrefix("Trap: ") ? String(text.dropFirst(6)) : text
            if reason.contains("out of fuel") { return cancellation?.isCancelled == true ? .timedOut : fuel.exhaustion }
            if limiter.refused { return .memoryLimit(pages: limits.memoryPages) }
            return .trap(reason)
        }
        if limiter.refused { return .memoryLimit(pages: limits.memoryPages) }
        return .invalidModule(String(describing: error))
    }

    // MARK: - Host calls

    /// Checks the host's state before any host call acts: the time left (and the fuel it is worth), then the memory.
    func guestMemory() throws(PluginFailure) -> CheckedGuestMemory {
        if cancellation?.isCancelled == true { throw .timedOut }
        if let store {
            let slice = fuel.nextSlice(secondsLeft: secondsLeft, remaining: store.fuel?.remaining)
            if slice == 0 { throw fuel.exhaustion }
            store.fuel = Fuel(remaining: slice)
        }
        guard let memory else { throw .protocolViolation("called the host before the host called it (a start function)") }
        return memory
    }

    /// Seconds until the deadline (negative past it), or nil without one.
    private var secondsLeft: Double? {
        guard let deadline = limits.deadline else { return nil }
        let left = now().duration(to: deadline).components
        return Double(left.seconds) + Double(left.attoseconds) * 1e-18
    }

    /// `emit(ptr, len)`.
    func emit(pointer: UInt32, length: UInt32) throws(PluginFailure) {
        let bytes = try guestMemory().read(pointer: pointer, length: length, function: "emit")
        try countOutput(bytes.count)
        switch try PluginMessageDTO(bytes: bytes) {
        case .item(let id, let title, let subtitle, let url, let date, let fields):
            itemCount += 1
            events.onRecord(try PluginMessageDTO.record(
                id: id, title: title, subtitle: subtitle, url: url, date: date, fields: fields, number: itemCount))
        case .warning(let message):
            events.onWarning(message)
        case .error(let kind, let message):
            if reportedError == nil { reportedError = SourceError(kind, message) }
        case .problem(let option, let message):
            events.onProblem(option, message)
        }
    }

    /// `log(level, ptr, len)`.
    func log(level: UInt32, pointer: UInt32, length: UInt32) throws(PluginFailure) {
        let bytes = try guestMemory().read(pointer: pointer, length: length, function: "log")
        try countOutput(bytes.count)
        events.onLog(Int32(bitPattern: level), String(decoding: bytes, as: UTF8.self))
    }

    /// `http_request(ptr, len) -> len`: the response document's length, to be read with `result_read`.
    func httpRequest(pointer: UInt32, length: UInt32) throws(PluginFailure) -> UInt32 {
        let bytes = try guestMemory().read(pointer: pointer, length: length, function: "http_request")
        guard let http else { throw .protocolViolation("http_request is not available in aggregate_check") }
        return hold(try http.perform(bytes))
    }

    /// `state_get(key_ptr, key_len) -> len`: the value's length for `result_read`, or -1 when there is none.
    func stateGet(pointer: UInt32, length: UInt32) throws(PluginFailure) -> UInt32 {
        let key = try guestMemory().read(pointer: pointer, length: length, function: "state_get")
        guard let value = state.value(for: String(decoding: key, as: UTF8.self)) else { return UInt32(bitPattern: -1) }
        return hold(Array(value.utf8))
    }

    /// `state_set(key_ptr, key_len, value_ptr, value_len)`.
    func stateSet(keyPointer: UInt32, keyLength: UInt32, valuePointer: UInt32, valueLength: UInt32) throws(PluginFailure) {
        let memory = try guestMemory()
        let key = try memory.read(pointer: keyPointer, length: keyLength, function: "state_set")
        let value = try memory.read(pointer: valuePointer, length: valueLength, function: "state_set")
        try state.set(String(decoding: key, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// `result_read(ptr, len) -> len`: copies the pending result (at most `len` bytes must fit it) and drops it.
    func resultRead(pointer: UInt32, length: UInt32) throws(PluginFailure) -> UInt32 {
        let memory = try guestMemory()
        guard let result = pendingResult else { throw .protocolViolation("result_read with no result pending") }
        guard result.count <= Int(length) else {
            throw .protocolViolation("result_read given \(length) bytes for a \(result.count)-byte result")
        }
        try memory.write(result, at: pointer, function: "result_read")
        pendingResult = nil
        return UInt32(result.count)
    }

    private func hold(_ result: [UInt8]) -> UInt32 {
        pendingResult = result
        return UInt32(result.count)
    }

    private func countOutput(_ bytes: Int) throws(PluginFailure) {
        outputBytes += bytes
        if outputBytes > limits.maxOutputBytes { throw .outputCap(limits.maxOutputBytes) }
    }
}

/// Refuses memory growth past `maxPages` and remembers that it did, so the trap that follows is named for it.
final class PluginMemoryLimiter: ResourceLimiter {
    private let maxBytes: Int
    private let refusedFlag = Atomic(false)

    init(maxPages: Int) {
        maxBytes = maxPages * 65_536
    }

    var refused: Bool { refusedFlag.load(ordering: .relaxed) }

    func limitMemoryGrowth(to desired: Int) throws -> Bool {
        guard desired <= maxBytes else {
            refusedFlag.store(true, ordering: .relaxed)
            return false
        }
        return true
    }

    func limitTableGrowth(to desired: Int) throws -> Bool {
        desired <= 100_000
    }
}
