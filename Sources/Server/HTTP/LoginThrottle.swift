import Foundation
import Synchronization

/// Failed logins per client address: after `maxFailures` wrong tokens within `window` seconds, that address's
/// next attempts are refused (429 with `Retry-After`) until the window that began with its first failure ends.
/// A right token clears the address's count. Guessing a token of 32 random bytes is hopeless anyway; this keeps
/// a script from trying at the speed of the network and from filling the log.
///
/// A state machine fed explicit times (no clock or thread of its own), so its tests drive it. Bounded: at most
/// `maxAddresses` addresses are remembered; expired ones go first, then the oldest window.
final class LoginThrottle: Sendable {
    struct Limits: Sendable {
        var maxFailures = 5
        var window: TimeInterval = 60
        var maxAddresses = 4_096
    }

    private struct Entry {
        var failures: Int
        var windowStart: Date
    }

    private let limits: Limits
    private let entries = Mutex<[String: Entry]>([:])

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Nil when `address` may try now, else the seconds until it may (at least 1).
    func retryAfter(for address: String, at now: Date) -> Int? {
        entries.withLock { entries in
            guard let entry = entries[address] else { return nil }
            let ends = entry.windowStart.addingTimeInterval(limits.window)
            guard now < ends else {
                entries[address] = nil
                return nil
            }
            guard entry.failures >= limits.maxFailures else { return nil }
            return max(1, Int(ends.timeIntervalSince(now).rounded(.up)))
        }
    }

    /// A wrong token from `address`.
    func failed(_ address: String, at now: Date) {
        entries.withLock { entries in
            if var entry = entries[address], now < entry.windowStart.addingTimeInterval(limits.window) {
                entry.failures += 1
                entries[address] = entry
                return
            }
            if entries[address] == nil, entries.count >= limits.maxAddresses { evict(from: &entries, at: now) }
            entries[address] = Entry(failures: 1, windowStart: now)
        }
    }

    /// The right token from `address`: its failures are forgotten.
    func succeeded(_ address: String) {
        _ = entries.withLock { $0.removeValue(forKey: address) }
    }

    /// How many addresses are remembered (tests of the bound).
    var rememberedAddresses: Int { entries.withLock { $0.count } }

    private func evict(from entries: inout [String: Entry], at now: Date) {
        entries = entries.filter { now < $0.value.windowStart.addingTimeInterval(limits.window) }
        if entries.count >= limits.maxAddresses, let oldest = entries.min(by: { $0.value.windowStart < $1.value.windowStart }) {
            entries[oldest.key] = nil
        }
    }
}
