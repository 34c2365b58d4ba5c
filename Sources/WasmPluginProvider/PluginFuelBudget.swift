/// The fuel a plugin run gets from WasmKit at a time: no more than its declared `plugins[].fuel` leaves, and no more
/// than the interpreter can burn in the source's time left. A loop that calls nothing is stopped by its fuel alone
/// (WasmKit cannot interrupt a guest from another thread, and its fuel trap cannot be resumed), so the time left is
/// turned into fuel before the guest runs and again at each host call.
///
/// A state machine without clocks or threads: the caller says how much time is left and how much fuel the store
/// still holds; the budget says what to give next and, when the fuel ran out, which limit it was.
struct PluginFuelBudget: Equatable {
    /// Which limit bounds the slice the guest holds.
    enum Bound: Equatable {
        /// `plugins[].fuel`: running out is the plugin's doing.
        case declared
        /// The source's time left: running out means its `timeoutSeconds` passed.
        case time
    }

    /// `plugins[].fuel`.
    let declared: UInt64
    /// Fuel the interpreter burns in a second (BENCHMARKS.md, "WebAssembly plugins").
    let fuelPerSecond: UInt64
    /// Fuel spent in the slices before the current one.
    private(set) var spent: UInt64 = 0
    /// The fuel the current slice started with.
    private(set) var slice: UInt64 = 0
    /// What bounds the current slice.
    private(set) var bound: Bound = .declared

    init(declared: UInt64, fuelPerSecond: UInt64) {
        self.declared = declared
        self.fuelPerSecond = fuelPerSecond
    }

    /// Starts a slice for `secondsLeft` (nil: no deadline), after accounting for `remaining`, the fuel the store
    /// holds of the previous slice (nil before the first). Returns the fuel to give the store.
    mutating func nextSlice(secondsLeft: Double?, remaining: UInt64?) -> UInt64 {
        if let remaining { spent += slice - min(remaining, slice) }
        let left = declared - min(spent, declared)
        var fuel = left
        bound = .declared
        if let secondsLeft {
            let byTime = Self.fuel(seconds: secondsLeft, perSecond: fuelPerSecond)
            if byTime < left {
                fuel = byTime
                bound = .time
            }
        }
        slice = fuel
        return fuel
    }

    /// All the fuel spent, the store holding `remaining` of the current slice.
    func used(remaining: UInt64) -> UInt64 {
        spent + slice - min(remaining, slice)
    }

    /// Why the guest's fuel ran out: the time (the source's timeout) or its own declared fuel.
    var exhaustion: PluginFailure {
        bound == .time ? .timedOut : .outOfFuel(declared)
    }

    /// Fuel for `seconds` at `perSecond`, saturating; none for no time.
    static func fuel(seconds: Double, perSecond: UInt64) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let fuel = seconds * Double(perSecond)
        return fuel >= Double(UInt64.max) ? .max : UInt64(fuel)
    }
}
