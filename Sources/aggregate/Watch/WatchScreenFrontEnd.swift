import App
import Domain
import Foundation
import Presentation

/// The full-screen view (stdout is a terminal). Filled in below.
final class WatchScreenFrontEnd: WatchFrontEnd {
    let color: Bool
    var output: RunOutput { .collect }
    var wantsEveryItem: Bool { true }

    init(color: Bool) {
        self.color = color
    }

    func begin(watcher: Watcher, sources: [String], onQuit: @escaping @Sendable () -> Void) {}
    func watchDidStart(_ ids: [String]) {}
    func watch(didFinish report: SourceReport, next: Date?) {}
    func end() {}
}
