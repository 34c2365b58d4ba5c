#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import Synchronization

/// How a long-running process (`serve`, `worker`) gives memory back to the system after a cycle of runs.
///
/// - Two malloc arenas. glibc makes up to eight a core, one for each thread that meets a busy arena, and each
///   keeps its high-water mark: a server whose threads free what other threads allocated (a run's items, then
///   pages) keeps far more than it uses.
/// - A fixed mmap threshold (128 KiB). By default glibc raises it to the size of each large block freed (up to
///   32 MiB), after which a run's read buffers and response bodies come from the arenas and pin them.
/// - Every `trimInterval`, the free pages inside the arenas are returned (`malloc_trim`): freeing returns only the
///   top of an arena by itself, and a cycle of thousands of sources leaves holes all through it. Each trim walks
///   the heap, so it is not done more often.
///
/// `MALLOC_ARENA_MAX` and `MALLOC_MMAP_THRESHOLD_` in the environment, when set, win. Figures: BENCHMARKS.md,
/// "Memory given back after a cycle".
enum ServerMemory {
    static let arenaLimit: Int32 = 2
    static let mmapThreshold: Int32 = 128 << 10
    static let trimInterval: DispatchTimeInterval = .seconds(10)

    /// glibc's `M_ARENA_MAX` and `M_MMAP_THRESHOLD` (malloc.h, which the Glibc module does not export).
    private static let arenaMax: Int32 = -8, mmapThresholdOption: Int32 = -3

    private static let trimTimer = Mutex<DispatchSourceTimer?>(nil)

    /// Sets the allocator's options and starts returning free pages every `trimInterval`. Called once, first thing.
    static func configure(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(Glibc)
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        typealias MallocTrim = @Sendable @convention(c) (Int) -> Int32
        let process = UnsafeMutableRawPointer(bitPattern: 0)
        if let symbol = dlsym(process, "mallopt") {
            let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
            if environment["MALLOC_ARENA_MAX"] == nil { _ = mallopt(arenaMax, arenaLimit) }
            if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(mmapThresholdOption, mmapThreshold) }
        }
        guard let symbol = dlsym(process, "malloc_trim") else { return }
        let trim = unsafeBitCast(symbol, to: MallocTrim.self)
        trimTimer.withLock { timer in  // made and kept here, once
            if timer == nil { timer = trimming(with: trim) }
        }
        #endif
    }

    /// A timer that calls `trim` every `trimInterval`, started.
    private static func trimming(with trim: @escaping @Sendable @convention(c) (Int) -> Int32) -> sending DispatchSourceTimer {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        source.schedule(deadline: .now() + trimInterval, repeating: trimInterval, leeway: .milliseconds(500))
        source.setEventHandler { _ = trim(0) }
        source.resume()
        return source
    }
}
