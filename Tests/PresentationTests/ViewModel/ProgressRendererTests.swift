import Domain
import Foundation
@testable import Presentation
import ProviderTesting
import Synchronization
import Testing

@Suite("Progress renderer")
struct ProgressRendererTests {
    final class Capture: Sendable {
        private let chunks = Mutex<[String]>([])
        var all: [String] { chunks.withLock { $0 } }
        var text: String { all.joined() }
        func write(_ chunk: String) { chunks.withLock { $0.append(chunk) } }
    }

    @Test("draws through the injected writer, redraws in place, and writes nothing after finish")
    func drawsAndStops() async throws {
        let capture = Capture()
        let renderer = ProgressRenderer(output: capture.write, width: 80, color: false, interval: 0.01)
        let viewModel = AggregateViewModel()
        renderer.attach(to: viewModel)
        #expect(try await eventually { renderer.ticks >= 3 })  // ticks before the run starts: nothing to draw yet
        #expect(capture.all.isEmpty)
        viewModel.aggregateDidStart([SampleReports.descriptor("a", "files"), SampleReports.descriptor("b", "http")])
        #expect(try await eventually { capture.text.contains("a (files) loading") })
        #expect(capture.text.contains("b (http) loading"))

        viewModel.source("a", didDeliver: 2)
        viewModel.sourceDidFinish(SourceReport(
            descriptor: SampleReports.descriptor("a", "files"), status: .ok,
            items: [Item(kind: .record, id: "1", title: "x")], duration: 0.004))
        #expect(try await eventually { capture.text.contains("● a (files) ok · 1 item · 4 ms") })
        let redraws = capture.all.dropFirst()
        #expect(redraws.allSatisfy { $0.hasPrefix("\r\u{1B}[2A") })  // back to the first of its two lines

        renderer.finish()
        let count = capture.all.count
        #expect(capture.all.last == "\r\u{1B}[2A\u{1B}[J")
        viewModel.sourceDidFinish(SourceReport(descriptor: SampleReports.descriptor("b", "http"), status: .ok))
        // Nothing draws after finish: the update above is ignored, and the timer is cancelled (a tick already
        // queued finds the renderer finished, see `tick`).
        #expect(capture.all.count == count)
        renderer.finish()
        #expect(capture.all.count == count)
    }

    @Test("a run that ends before the first redraw leaves nothing on the terminal")
    func quickRun() {
        let capture = Capture()
        let renderer = ProgressRenderer(output: capture.write, interval: 60)
        let viewModel = AggregateViewModel()
        renderer.attach(to: viewModel)
        viewModel.aggregateDidStart([SampleReports.descriptor("a", "files")])
        viewModel.sourceDidFinish(SourceReport(descriptor: SampleReports.descriptor("a", "files"), status: .ok))
        renderer.finish()
        #expect(capture.all.isEmpty)
    }

    @Test("lines say each source's phase and are cut to the width")
    func lines() {
        let wide = ProgressRenderer(output: { _ in }, width: 80, color: false)
        let loading = SourceRow(id: "notes", provider: "files", itemCount: 12)
        #expect(wide.line(for: loading, frame: 0, elapsed: 1.25) == "⠋ notes (files) loading · 12 items · 1.3 s")
        #expect(wide.line(for: loading, frame: 1, elapsed: nil) == "⠙ notes (files) loading · 12 items")

        let renderer = ProgressRenderer(output: { _ in }, width: 40, color: false)
        let failed = SourceRow(
            id: "issues", provider: "github", phase: .finished(.error), duration: 0.031,
            message: "unauthorized: Bad credentials\nand more")
        let line = renderer.line(for: failed, frame: 0, elapsed: nil)
        #expect(line.hasPrefix("✖ issues (github) error · unauth"))
        #expect(line.hasSuffix("…"))
        #expect(TerminalText.width(line) <= 39)
        #expect(!line.contains("\n"))
        let skipped = SourceRow(id: "w", provider: "openweather", phase: .finished(.skipped), message: "disabled")
        #expect(renderer.line(for: skipped, frame: 0, elapsed: nil) == "○ w (openweather) skipped · disabled")
    }
}
