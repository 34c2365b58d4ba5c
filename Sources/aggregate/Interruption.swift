import Dispatch
import Domain
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM during a run: the run is cancelled (every source still loading is stopped, a
/// program's process group too, and awaited), what was loaded is printed, and the exit status is 130.
/// A second signal while that happens ends the process at once.
final class Interruption: Sendable {
    let token = CancellationToken()
    private let received = Atomic(0)

    private init() {}

    var happened: Bool { received.load(ordering: .acquiring) > 0 }

    /// Takes over SIGINT and SIGTERM for the rest of the process.
    static func install() -> Interruption {
        let interruption = Interruption()
        let queue = DispatchQueue(label: "aggregate.signals")
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // delivered to the dispatch source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            // The handler holds its source: both live as long as the process, as the signals' owner should.
            source.setEventHandler { [interruption, source] in
                _ = source
                interruption.receive(number)
            }
            source.resume()
        }
        return interruption
    }

    private func receive(_ number: Int32) {
        if received.add(1, ordering: .acquiringAndReleasing).oldValue > 0 {
            signal(number, SIG_DFL)
            raise(number)
        }
        token.cancel()
    }
}
