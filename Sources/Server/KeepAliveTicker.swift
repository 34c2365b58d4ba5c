import Domain
import Synchronization

/// Wakes every `/events` client every `seconds` on `clock` (each sends a comment, so a proxy keeps the stream
/// open), until stopped. A wake-up already set when it stops finds it stopped and does nothing.
final class KeepAliveTicker: Sendable {
    private let clock: any TimerClock
    private let seconds: Double
    private let tick: @Sendable () -> Void
    private let stopped = Atomic(false)

    init(clock: any TimerClock, every seconds: Double, _ tick: @escaping @Sendable () -> Void) {
        self.clock = clock
        self.seconds = seconds
        self.tick = tick
        arm()
    }

    func stop() { stopped.store(true, ordering: .releasing) }

    private func arm() {
        clock.wake(after: seconds) { [self] in
            guard !stopped.load(ordering: .acquiring) else { return }
            tick()
            arm()
        }
    }
}
