import Domain
import Foundation
import Presentation
import ProviderTesting
import Synchronization
import Testing

/// Collects what the writer hands out.
private final class Collected: Sendable {
    private let chunks = Mutex<[[UInt8]]>([])
    func append(_ bytes: [UInt8]) { chunks.withLock { $0.append(bytes) } }
    var text: String { String(decoding: chunks.withLock { $0.joined() }, as: UTF8.self) }
    var count: Int { chunks.withLock { $0.count } }
}

/// `flush` waits for the writer's queue: done on a thread of its own, never on the shared pool.
private func flushed(_ writer: NDJSONStreamWriter) async {
    await withCheckedContinuation { continuation in
        Thread {
            writer.flush()
            continuation.resume()
        }.start()
    }
}

@Suite("NDJSON stream writer: the NDJSON renderer's lines while the run goes on")
struct NDJSONStreamWriterTests {
    @Test("batches written as they come make exactly the renderer's text for the same report")
    func sameAsRenderer() async {
        let report = SampleReports.everyKind
        let collected = Collected()
        let writer = NDJSONStreamWriter(limit: nil, output: collected.append)
        for source in report.sources {
            for item in source.items { writer.write([item], source: source.id) }  // one item a batch
        }
        await flushed(writer)
        #expect(collected.text == NDJSONRenderer().render(report))
        #expect(!collected.text.isEmpty)
    }

    @Test("--limit counts per source across batches")
    func limitAcrossBatches() async {
        let collected = Collected()
        let writer = NDJSONStreamWriter(limit: 3, output: collected.append)
        let items = (1...5).map { Item(kind: .record, id: String($0), title: "t") }
        writer.write(Array(items[0..<2]), source: "a")
        writer.write(Array(items[2..<5]), source: "a")
        writer.write(Array(items[0..<1]), source: "b")
        await flushed(writer)
        let ids = collected.text.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).map { "\($0["source"]!)\($0["id"]!)" }
        }
        #expect(ids == ["a1", "a2", "a3", "b1"])
    }

    @Test("large output goes out in chunks while it is written, not only at the end")
    func chunks() async {
        let collected = Collected()
        let writer = NDJSONStreamWriter(limit: nil, output: collected.append)
        let batch = (0..<500).map { Item(kind: .record, id: String($0), title: String(repeating: "x", count: 100)) }
        await onOwnThread { for _ in 0..<10 { writer.write(batch, source: "big") } }  // ~1 MB rendered
        await flushed(writer)
        #expect(collected.count >= 10)  // ~1 MB, handed out at least once per 64 KiB gathered
        #expect(collected.text.split(separator: "\n").count == 5000)
    }
}
