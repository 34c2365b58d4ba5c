// Parses one feed file with FeedParsing and prints `entries seconds peak_rss_kib` on one line, for
// Benchmarks/feeds/run.sh. Build with `swift build -c release --product feed-bench`.
import FeedParsing
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: feed-bench FILE\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: CommandLine.arguments[1])
let clock = ContinuousClock()
let start = clock.now
do {
    let feed = try FeedParser.parse(contentsOf: url, maxEntries: 1_000_000)
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let dated = feed.entries.filter { $0.published != nil }.count
    print(feed.entries.count, String(format: "%.4f", seconds), peakResidentKiB(), dated)
} catch {
    FileHandle.standardError.write(Data("feed-bench: \(error)\n".utf8))
    exit(1)
}

/// VmHWM: the peak resident set size of this process, in KiB (Linux).
func peakResidentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
    }
    return -1
}
