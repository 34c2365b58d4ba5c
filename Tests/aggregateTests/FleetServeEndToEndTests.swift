import Foundation
import HTTPClient
import ProviderTesting
import Synchronization
import Testing

/// `aggregate serve --no-worker` beside a fleet of workers: servers that run no source and show what the workers
/// stored (issue 41).
@Suite("serve --no-worker shows a fleet's stored reports (end to end)", .serialized,
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct FleetServeEndToEndTests {
    static let token = "fleet-serve-token-71c2"

    /// A long-running `aggregate` on the fleet's store.
    static func start(_ arguments: [String], fleet: FleetEndToEndTests.Fleet) throws -> LiveProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["AGGREGATE_HOME"] = Aggregate.temporaryHome().path
        environment["AGGREGATE_STORE"] = fleet.store
        environment["AGGREGATE_SERVE_TOKEN"] = token
        return try LiveProcess.start(Aggregate.binary, arguments + ["--manifest", fleet.sandbox.manifestPath], environment: environment)
    }

    static func get(_ url: String) async throws -> (status: Int, body: String) {
        let response = try await LoopbackClient.send(
            HTTPRequest(url: try #require(URL(string: url)), headers: ["Authorization": "Bearer \(token)"]))
        return (response.status, response.text)
    }

    static func refresh(_ base: String, _ id: String) async throws -> Int {
        let url = try #require(URL(string: "\(base)/api/sources/\(id)/refresh"))
        return try await LoopbackClient.send(HTTPRequest(.post, url: url, headers: ["Authorization": "Bearer \(token)"])).status
    }

    /// When each source of `/api/sources` last finished (`updated`), by id.
    static func finishedAt(_ base: String) async throws -> [String: String] {
        let body = try await get("\(base)/api/sources").body
        let sources = (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["sources"] as? [[String: Any]]
        return Dictionary(uniqueKeysWithValues: (sources ?? []).compactMap { source in
            (source["id"] as? String).map { ($0, "\(source["updated"] ?? "")") }
        })
    }

    /// The first `count` items a server announced on `/events` since it started, as "source/id".
    static func announced(_ base: String, count: Int) async throws -> [String] {
        let url = try #require(URL(string: "\(base)/events"))
        let stream = try await LoopbackClient.open(
            HTTPRequest(url: url, headers: ["Authorization": "Bearer \(token)", "Last-Event-ID": "0"]), timeout: .seconds(60))
        defer { stream.close() }
        var items: [String] = []
        var event: (name: String?, data: String?) = (nil, nil)
        // A blank line ends an event; only `item` events count.
        while items.count < count, let line = try await stream.nextLine() {
            if line.isEmpty {
                if event.name == "item", let data = event.data,
                   let item = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] {
                    items.append("\(item["source"] ?? "?")/\(item["id"] ?? "?")")
                }
                event = (nil, nil)
            } else if line.hasPrefix("event: ") {
                event.name = String(line.dropFirst(7))
            } else if line.hasPrefix("data: ") {
                event.data = String(line.dropFirst(6))
            }
        }
        return items
    }

    @Test("two serve --no-worker replicas beside two workers answer the same /api/report; a refresh asked of either runs the source once more in the fleet")
    func replicas() async throws {
        let server = try await FixtureServer.start()
        server.fallback(try SharedStoreEndToEndTests.feed())
        let count = 12
        let fleet = try await FleetEndToEndTests.Fleet(
            manifest: FleetEndToEndTests.manifest(sources: count, server: server)
                .replacingOccurrences(of: #""cacheTTLSeconds": 0"#, with: #""cacheTTLSeconds": 0, "refreshSeconds": 3600"#))
        // The workers first: they register the fleet's manifest.
        let workers = try (0..<2).map { _ in try Self.start(["worker", "--claim-seconds", "30"], fleet: fleet) }
        let ran = await server.waitForRequests(within: 120) { $0.count == count }
        #expect(ran, "every source ran once")
        let replicas = try (0..<2).map { _ in
            try Self.start(["serve", "--no-worker", "--listen", "127.0.0.1:0", "--verbose"], fleet: fleet)
        }
        var bases: [String] = []
        for replica in replicas {
            let port = try #require(await ServeCommandTests.port(of: replica))
            bases.append("http://127.0.0.1:\(port)")
        }
        for (replica, base) in zip(replicas, bases) {
            let ready = await replica.waitFor { _, stderr in stderr.contains("serve: ready: every source finished a cycle") }
            #expect(ready, "each replica read every source's report from the store")
            #expect(try await Self.get("\(base)/readyz").status == 200)
        }
        let first = try await Self.get("\(bases[0])/api/report")
        let second = try await Self.get("\(bases[1])/api/report")
        // Each replica announces the items the workers' history found new (all, the sources' first run), once.
        let announcedFirst = try await Self.announced(bases[0], count: count * 4)
        let announcedSecond = try await Self.announced(bases[1], count: count * 4)

        let before = try await Self.finishedAt(bases[0])
        let asked = try await Self.refresh(bases[1], "s0003")
        let reran = await server.waitForRequests(path: "/feeds/s0003.xml", count: 2, within: 60)
        // Both replicas show the new run (each reads the store every second): s0003's `updated` changes, and only
        // that one's, and their reports are the same again.
        var (after, afterOther) = (before, before)
        for _ in 0..<2_400 where after["s0003"] == before["s0003"] || afterOther != after {
            after = try await Self.finishedAt(bases[0])
            afterOther = try await Self.finishedAt(bases[1])
            if after["s0003"] == before["s0003"] || afterOther != after {
                try await Task.sleep(for: .milliseconds(50))  // replicas are other processes, each reading the store alone
            }
        }
        let unknown = try await Self.refresh(bases[0], "nope")
        let againFirst = try await Self.get("\(bases[0])/api/report")
        let againSecond = try await Self.get("\(bases[1])/api/report")

        for process in replicas + workers { process.signal(SIGTERM) }
        var results: [ProcessResult] = []
        for process in replicas + workers { results.append(await process.finish()) }
        await server.stop()

        #expect(first.status == 200)
        #expect(first.body == second.body, "the same report from both replicas")
        let report = try JSONSerialization.jsonObject(with: Data(first.body.utf8)) as? [String: Any]
        let sources = report?["sources"] as? [[String: Any]] ?? []
        #expect(sources.count == count, "every source in the report")
        #expect(sources.allSatisfy { $0["status"] as? String == "ok" && $0["itemCount"] as? Int == 4 })
        #expect((report?["items"] as? [Any])?.count == count * 4, "with the items the workers stored")
        #expect(announcedFirst.count == count * 4 && Set(announcedFirst).count == count * 4, "\(announcedFirst)")
        #expect(Set(announcedFirst) == Set(announcedSecond), "both replicas announce the same items")
        #expect(asked == 202)
        #expect(reran, "the refresh made the source due for the fleet, and a worker ran it")
        #expect(after["s0003"] != before["s0003"], "the other replica shows the new run")
        #expect(after.filter { $0.key != "s0003" } == before.filter { $0.key != "s0003" }, "no other source ran")
        #expect(unknown == 404)
        let same = againFirst.body == againSecond.body
        #expect(same, "the same report from both after the refresh")
        #expect(server.requests.count == count + 1, "the replicas fetched nothing themselves")
        for result in results { #expect(result.status == 0, "stderr: \(result.stderr)") }
    }

    @Test("serve --no-worker on the SQLite store is refused with what to do")
    func needsSharedStore() async throws {
        let sandbox = try Sandbox(manifest: #"{"version": 1, "sources": [{"id": "a", "provider": "files", "options": {"paths": ["x.ndjson"]}}]}"#)
        let result = try await Aggregate.run(["serve", "--no-worker", "--manifest", sandbox.manifestPath], removing: ["AGGREGATE_STORE"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("AGGREGATE_STORE") && result.stderr.contains("--no-worker"), "\(result.stderr)")
    }
}
