import Presentation
import Testing

@Suite("Renderers")
struct RenderersTests {
    @Test("every output format has its renderer", arguments: OutputFormat.allCases)
    func rendererForFormat(format: OutputFormat) {
        let renderer = Renderers.renderer(for: format)
        switch format {
        case .table: #expect(renderer is TableRenderer)
        case .json: #expect(renderer is JSONRenderer)
        case .ndjson: #expect(renderer is NDJSONRenderer)
        case .csv: #expect(renderer is CSVRenderer)
        case .markdown: #expect(renderer is MarkdownRenderer)
        case .atom: #expect(renderer is AtomRenderer)
        case .rss: #expect(renderer is RSSRenderer)
        case .jsonfeed: #expect(renderer is JSONFeedRenderer)
        }
    }

    @Test("renders into any text output stream, the same text as into a string")
    func anyStream() {
        struct Lines: TextOutputStream {
            var chunks: [String] = []
            mutating func write(_ string: String) { chunks.append(string) }
        }
        for format in OutputFormat.allCases {
            let renderer = Renderers.renderer(for: format)
            var stream = Lines()
            renderer.render(SampleReports.everyKind, options: RenderOptions(), to: &stream)
            #expect(stream.chunks.joined() == renderer.string(for: SampleReports.everyKind))
        }
    }
}
