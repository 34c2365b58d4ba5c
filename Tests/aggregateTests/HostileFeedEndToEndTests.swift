import Foundation
import Testing

@Suite("A hostile feed beside a healthy source, end to end")
struct HostileFeedEndToEndTests {
    @Test("the fuzzer's crasher as a feed source: reported on its own line, the other source printed, no crash")
    func crasherBesideHealthySource() async throws {
        let crasher = try #require(Bundle.module.url(
            forResource: "Fixtures/fuzz_sciencemag_bad_decl_bad_utf8_attr.xml", withExtension: nil))
        let sandbox = try Sandbox(
            manifest: """
                {"version": 1, "sources": [
                  {"id": "hostile", "provider": "feed", "options": {"paths": ["data/crasher.xml"]}},
                  {"id": "notes", "provider": "files", "options": {"paths": ["data/a.ndjson"]}}
                ]}
                """,
            files: ["data/a.ndjson": #"{"id": "n1", "title": "Still here"}"#])
        try FileManager.default.copyItem(at: crasher, to: sandbox.root.appendingPathComponent("data/crasher.xml"))
        let result = try await Aggregate.run(["--format", "json", "--manifest", sandbox.manifestPath])
        #expect(result.status == 0 || result.status == 1, "ended by a signal? status \(result.status)")
        let sources = try result.sources()
        let hostile = try #require(sources.first)
        #expect(hostile["id"] as? String == "hostile")
        // The feed source says what happened to it: an error, or a warning beside what it could read.
        let warnings = hostile["warnings"] as? [String] ?? []
        #expect(hostile["status"] as? String == "error" || !warnings.isEmpty, "\(hostile)")
        #expect(hostile["status"] as? String != "error" || hostile["error"] != nil, "\(hostile)")
        #expect(sources.last?["status"] as? String == "ok")
        #expect(try result.items().contains { $0["title"] as? String == "Still here" })
    }
}
