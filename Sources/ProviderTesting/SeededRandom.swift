/// A seeded random number generator (SplitMix64): tests that draw random values (jitter, dates) get the same
/// ones on every run, so a failure names values that come back.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state: the same state gives the same numbers.
    public var state: UInt64

    /// A generator starting at `state` (the seed).
    public init(state: UInt64) {
        self.state = state
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
