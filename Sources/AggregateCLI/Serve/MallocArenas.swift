#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// How many malloc arenas a long-running server lets glibc keep. glibc makes up to eight a core, one for each
/// thread that meets a busy arena, and each keeps its high-water mark: a server whose threads free what other
/// threads allocated (a run's items, then pages) keeps far more than it uses (BENCHMARKS.md, "aggregate serve at
/// fleet scale"). `MALLOC_ARENA_MAX` in the environment, when set, wins.
enum MallocArenas {
    static let serverLimit: Int32 = 2
    /// glibc's `M_ARENA_MAX` (malloc.h, which the Glibc module does not export).
    private static let arenaMax: Int32 = -8

    static func limitForServer(environment: [String: String] = ProcessInfo.processInfo.environment) {
        #if canImport(Glibc)
        guard environment["MALLOC_ARENA_MAX"] == nil, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else {
            return
        }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMax, serverLimit)
        #endif
    }
}
