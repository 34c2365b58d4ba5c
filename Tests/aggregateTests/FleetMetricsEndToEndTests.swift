import Foundation
import HTTPClient
import ProviderTesting
import Synchronization
import Testing

/// `aggregate worker --metrics`: a worker's own Prometheus endpoint (issue 41).
@Suite("a fleet worker's /metrics (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct FleetMetricsEndToEndTests {
    /// The value of the sample `name` (with its labels, as written) in a Prometheus text body.
    static func value(_ body: String, _ name: String) -> Double? {
        body.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    /// The port a worker said its metrics listen on.
    static func port(of process: LiveProcess) async -> Int? {
        let found = Mutex<Int?>(nil)
        _ = await process.waitFor { _, stderr in
            guard let range = stderr.range(of: "metrics on http://127.0.0.1:") else { return false }
            found.withLock { $0 = Int(stderr[range.upperBound...].prefix { $0.isNumber }) }
            return true
        }
        return found.withLock { $0 }
    }

    @Test("a worker's /metrics counts its claims and its sources by outcome, and the lag histogram holds every claim; no URL in it")
    func metrics() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        server.route("/feeds/s0007.xml", FixtureResponse(status: 500, body: Data("down".utf8)))
        let fleet = try await FleetEndToEndTests.Fleet(manifest: FleetEndToEndTests.manifest(sources: 25, server: server))
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["AGGREGATE_STORE"] = fleet.store
        let worker = try LiveProcess.start(
            Aggregate.binary,
            ["worker", "--batch", "4", "--metrics", "127.0.0.1:0", "--manifest", fleet.sandbox.manifestPath],
            environment: environment)
        let port = await Self.port(of: worker)
        var body = ""
        var scraped = false
        if let port {
            // Scraped until the worker finished all 25 (each source once: the next run is an interval away).
            for _ in 0..<2_400 where !scraped {
                let response = try await LoopbackClient.send(HTTPRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/metrics"))))
                #expect(response.status == 200)
                body = response.text
                let ok = Self.value(body, #"aggregate_worker_sources_total{outcome="ok"}"#) ?? 0
                let failed = Self.value(body, #"aggregate_worker_sources_total{outcome="error"}"#) ?? 0
                scraped = ok + failed == 25
                if !scraped { try await Task.sleep(for: .milliseconds(50)) }  // another process's count: scraped, no event
            }
        }
        worker.signal(SIGTERM)
        let result = await worker.finish()
        await server.stop()

        #expect(port != nil, "the worker said where its metrics are: \(result.stderr)")
        #expect(scraped, "the worker ran its 25 sources: \(body)")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(Self.value(body, #"aggregate_worker_sources_total{outcome="ok"}"#) == 24)
        #expect(Self.value(body, #"aggregate_worker_sources_total{outcome="error"}"#) == 1, "s0007 answered 500")
        #expect(Self.value(body, "aggregate_worker_claims_total") == 25)
        #expect(Self.value(body, "aggregate_worker_claim_batches_total") == 7, "25 sources in batches of 4")
        #expect(Self.value(body, "aggregate_worker_schedule_lag_seconds_count") == 25, "one lag per claim")
        #expect(Self.value(body, #"aggregate_worker_schedule_lag_seconds_bucket{le="+Inf"}"#) == 25)
        #expect(Self.value(body, "aggregate_worker_claims_given_back_total") == 0)
        #expect(body.contains("process_resident_memory_bytes"))
        #expect(!body.contains("http://") && !body.contains("127.0.0.1"), "no URL or host of a source in the metrics")
    }
}
