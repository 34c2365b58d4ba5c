import Dispatch
import Foundation

/// SIGHUP: reload the manifest (`aggregate watch`).
enum Reload {
    /// Calls `reload` on a queue of its own for every SIGHUP from now on.
    static func onHangUp(_ reload: @escaping @Sendable () -> Void) {
        signal(SIGHUP, SIG_IGN)  // delivered to the dispatch source instead of ending the process
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: DispatchQueue(label: "aggregate.reload"))
        // The handler holds its source: both live as long as the process.
        source.setEventHandler { [source] in
            _ = source
            reload()
        }
        source.resume()
    }
}
