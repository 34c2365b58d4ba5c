import Foundation
import ProviderTesting
@testable import Server
import Testing

/// Prometheus text format, parsed: each sample's name, labels and value.
struct Sample: Equatable {
    var name: String
    var labels: [String: String]
    var value: Double

    static func parse(_ text: String) -> [Sample] {
        text.split(separator: "\n").compactMap { line -> Sample? in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...])
            else { return nil }
            let series = line[..<space]
            guard let open = series.firstIndex(of: "{") else { return Sample(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { labels[String(parts[0])] = String(parts[1].dropFirst().dropLast()) }
            }
            return Sample(name: String(series[..<open]), labels: labels, value: value)
        }
    }
}

extension [Sample] {
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        first { sample in sample.name == name && labels.allSatisfy { key, value in sample.labels[key] == value } }?.value
    }
}

@Suite("serve: Prometheus metrics")
struct MetricsEndToEndTests {
    @Test("/metrics: refreshes by outcome, cache, errors by kind, load durations, items, new items, last success, process")
    func scrape() async throws {
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
              {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
              {"id": "broken", "provider": "files", "options": {"paths": ["data/missing.ndjson"]}}
            ]}
            """, files: ["data/notes.ndjson": ndjson([("a", "A", nil), ("b", "B", nil)])])
        try await harness.ready()
        // Counted against a first scrape: the harness starts every source at once, and under load a source's
        // own first-cycle timer may run it once more before that.
        let first = Sample.parse(try await harness.request("/metrics").text)
        let notesBefore = try #require(first.value("aggregate_source_refreshes_total", ["source": "notes", "outcome": "ok"]))
        let brokenRuns = try #require(first.value("aggregate_source_refreshes_total", ["source": "broken", "outcome": "error"]))
        #expect(notesBefore >= 1 && brokenRuns >= 1)
        #expect(first.value("aggregate_source_new_items_total", ["source": "notes"]) == 2, "a and b, once however many cycles")
        try harness.write("data/notes.ndjson", ndjson([("a", "A", nil), ("b", "B", nil), ("c", "C", nil)]))
        #expect(harness.server.watcher.refresh("notes"))
        try await harness.poll("/api/sources") { $0.text.contains(#""itemCount":3"#) }

        let reply = try await harness.request("/metrics")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        let samples = Sample.parse(reply.text)
        #expect(samples.value("aggregate_source_refreshes_total", ["source": "notes", "outcome": "ok"]) == notesBefore + 1)
        #expect(samples.value("aggregate_source_refreshes_total", ["source": "broken", "outcome": "error"]) == brokenRuns)
        #expect(samples.value("aggregate_source_cache_total", ["source": "notes", "cache": "off"]) == notesBefore + 1)
        let errorKind = try #require(samples.first { $0.name == "aggregate_source_errors_total" && $0.labels["source"] == "broken" })
        #expect(errorKind.value == brokenRuns, "one error per failed refresh")
        #expect(errorKind.labels["error_kind"] == "notFound")
        #expect(samples.value("aggregate_source_load_duration_seconds_count", ["source": "notes"]) == notesBefore + 1)
        #expect(samples.contains { $0.name == "aggregate_source_load_duration_seconds_bucket" && $0.labels["le"] == "+Inf" })
        #expect(samples.value("aggregate_source_items", ["source": "notes"]) == 3)
        #expect(samples.value("aggregate_source_new_items_total", ["source": "notes"]) == 3, "a, b, then c")
        let lastSuccess = try #require(samples.value("aggregate_source_last_success_timestamp_seconds", ["source": "notes"]))
        #expect(abs(lastSuccess - Date().timeIntervalSince1970) < 600)
        #expect(samples.value("aggregate_source_last_success_timestamp_seconds", ["source": "broken"]) == nil)
        #expect((samples.value("process_resident_memory_bytes") ?? 0) > 1_000_000)
        #expect((samples.value("process_open_fds") ?? 0) > 0)
        #expect(samples.value("process_start_time_seconds") != nil)
        #expect(samples.value("process_cpu_seconds_total") != nil)
        #expect(reply.text.contains("# TYPE aggregate_source_refreshes_total counter"))
        try await harness.stop()
    }

    @Test("/metrics counts each HTTP request of a source: its status, a revalidation (304), a cache hit, an error kind")
    func requests() async throws {
        let fixtures = try await FixtureServer.start()
        let rss = try #require(Bundle.module.url(forResource: "rss2_spec_sample_liftoff_news", withExtension: "xml", subdirectory: "Fixtures"))
        let feed = try FixtureResponse.file(rss, contentType: "application/rss+xml")
        fixtures.route("/fresh.xml", feed)
        var validated = feed
        validated.headers += [("ETag", "\"v1\""), ("Cache-Control", "no-cache")]
        fixtures.route("/revalidated.xml", [validated, FixtureResponse(status: 304, headers: [("ETag", "\"v1\"")])])
        fixtures.route("/gone.xml", FixtureResponse(status: 404))
        // One attempt (`maxRetries: 0`): what is counted is the refusal itself. With retries the source's 10 s could
        // run out before its last attempt was sent, which counts a timeout instead (seen twice in the full suite).
        let refused = try await FixtureServer.refusedURL()
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600, "cacheTTLSeconds": 3600}, "sources": [
              {"id": "fresh", "provider": "feed", "options": {"urls": ["\(fixtures.baseURL.absoluteString)/fresh.xml"]}},
              {"id": "revalidated", "provider": "feed", "options": {"urls": ["\(fixtures.baseURL.absoluteString)/revalidated.xml"]}},
              {"id": "gone", "provider": "feed", "options": {"urls": ["\(fixtures.baseURL.absoluteString)/gone.xml"]}},
              {"id": "refused", "provider": "feed", "options": {"urls": ["\(refused.absoluteString)/feed.xml"], "maxRetries": 0}}
            ]}
            """)
        try await harness.ready()
        let first = Sample.parse(try await harness.request("/metrics").text)
        func requests(_ samples: [Sample], _ source: String, _ outcome: String) -> Double {
            samples.value("aggregate_source_requests_total", ["source": source, "outcome": outcome]) ?? 0
        }
        #expect(requests(first, "fresh", "200") == 1, "one request, then the cache")
        #expect(requests(first, "revalidated", "200") == 1)
        #expect(requests(first, "gone", "404") >= 1)
        #expect(requests(first, "refused", "network") >= 1, "the refused source's samples: \(first.filter { $0.labels["source"] == "refused" })")
        let cycles = { (samples: [Sample], source: String) in
            samples.value("aggregate_source_refreshes_total", ["source": source, "outcome": "ok"]) ?? 0
        }
        #expect(harness.server.watcher.refresh("fresh"))
        #expect(harness.server.watcher.refresh("revalidated"))
        let samples = Sample.parse(try await harness.poll("/metrics") { reply in
            let samples = Sample.parse(reply.text)
            return cycles(samples, "fresh") != cycles(first, "fresh") && cycles(samples, "revalidated") != cycles(first, "revalidated")
        }.text)
        #expect(requests(samples, "fresh", "200") == 1, "no new request: the stored response is fresh")
        #expect(requests(samples, "fresh", "cache_hit") == requests(first, "fresh", "cache_hit") + 1)
        #expect(requests(samples, "revalidated", "304") == requests(first, "revalidated", "304") + 1)
        #expect(fixtures.requests(path: "/revalidated.xml").last?.headers["if-none-match"] == "\"v1\"")
        #expect(!samples.contains { $0.name == "aggregate_source_requests_total" && $0.labels["outcome"] == "cache_hit" && $0.labels["source"] == "gone" })
        try await harness.stop()
        await fixtures.stop()
    }
}
