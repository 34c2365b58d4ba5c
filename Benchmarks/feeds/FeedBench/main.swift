// Parses one feed file with FeedParsing and prints `entries seconds peak_rss_kib dated_entries` on one line,
// for Benchmarks/feeds/run.sh. `--stream` hands entries to a callback instead of keeping them in a `Feed`.
// Build with `swift build -c release --product feed-bench`.
import Domain
import FeedParsing
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
let stream = arguments.first == "--stream"
if stream { arguments.removeFirst() }
guard arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: feed-bench [--stream] FILE\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[0])
let clock = ContinuousClock()
let start = clock.now
do {
    var count = 0
    var dated = 0
    if stream {
        _ = try FeedParser.parse(contentsOf: url, maxEntries: 1_000_000) { (entry) throws(SourceError) in
            count += 1
            if entry.published != nil { dated += 1 }
        }
    } else {
        let feed = try FeedParser.parse(contentsOf: url, maxEntries: 1_000_000)
        count = feed.entries.count
        for entry in feed.entries where entry.published != nil { dated += 1 }
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(count, String(format: "%.4f", seconds), peakResidentKiB(), dated)
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
