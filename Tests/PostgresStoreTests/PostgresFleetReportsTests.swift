import Domain
import Foundation
import PostgresStore
import ProviderTesting
import Testing

/// The fleet's latest reports (`serve --no-worker` reads them): stored whole, versioned, read back by change.
@Suite("PostgreSQL store: the fleet's latest reports",
       .enabled(if: TestPostgres.shouldRun, Comment(rawValue: TestPostgres.skipMessage)))
struct PostgresFleetReportsTests {
    static func report(_ id: String, status: SourceStatus, items: [String], error: SourceError? = nil) -> SourceReport {
        var report = SourceReport(
            descriptor: SourceDescriptor(id: id, provider: "feed", timeoutSeconds: 15, concurrency: 4), status: status,
            items: items.map { Item(kind: .entry, id: $0, title: "T \($0)", url: URL(string: "https://example.org/\($0)"),
                                    date: Date(timeIntervalSince1970: 1_700_000_000.25), fields: ["n": .int(1)]) },
            warnings: ["2 of 5 entries kept"], error: error, message: error == nil ? nil : "served from the last good copy",
            duration: 0.125, cache: .miss)
        report.filteredItemCount = 3
        report.refreshNotBefore = Date(timeIntervalSince1970: 1_800_000_000)
        return report
    }

    @Test("a report is read back as stored (its new items, every item's id and the count, error and its retry time, new ids, times); a newer one replaces it with a higher version")
    func roundTrip() async throws {
        let url = try await TestPostgres.makeDatabase()
        let (first, versions, replaced, recent, none) = try await blocking {
            let reports = PostgresFleetReports(database: try PostgresStoreDatabase.open(try PostgresStoreURL(url)))
            let failed = SourceError(.rateLimited, "429 from the service", retryAt: Date(timeIntervalSince1970: 1_800_000_100))
            let a = FleetReport(
                report: Self.report("a", status: .stale, items: ["1", "2"], error: failed), newItemIDs: ["2"],
                finishedAt: Date(timeIntervalSince1970: 1_700_000_001.5), next: Date(timeIntervalSince1970: 1_700_000_901))
            let b = FleetReport(
                report: Self.report("b", status: .ok, items: []), newItemIDs: nil,
                finishedAt: Date(timeIntervalSince1970: 1_700_000_002), next: Date(timeIntervalSince1970: 1_700_000_902))
            try reports.publish([a, b])
            let first = try reports.reports(of: ["a", "b", "unknown"]).sorted { $0.report.id < $1.report.id }
            let versions = try reports.versions(storedWithinSeconds: nil)
            var newer = a
            newer.report.items = []
            try reports.publish([newer])
            let replaced = try reports.reports(of: ["a"])
            return (first, versions, replaced, try reports.versions(storedWithinSeconds: 60), try reports.reports(of: []))
        }
        try #require(first.count == 2)
        // Only the new item travels with the report (the others are in the archive); the count and the ids stay.
        var expected = Self.report("a", status: .stale, items: ["2"], error: SourceError(.rateLimited, "429 from the service"))
        expected.streamedItemCount = 1
        #expect(first[0].report == expected)
        #expect(first[0].report.itemCount == 2 && first[0].itemIDs == ["1", "2"])
        #expect(first[0].report.error?.retryAt == Date(timeIntervalSince1970: 1_800_000_100))
        #expect(first[0].report.filteredItemCount == 3 && first[0].report.refreshNotBefore == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(first[0].newItemIDs == ["2"] && first[1].newItemIDs == nil)
        #expect(first[0].finishedAt == Date(timeIntervalSince1970: 1_700_000_001.5))
        #expect(first[1].next == Date(timeIntervalSince1970: 1_700_000_902))
        #expect(first[0].report.items.first?.date == Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(versions == ["a": first[0].version, "b": first[1].version])
        #expect(replaced.count == 1 && replaced[0].report.items.isEmpty)
        #expect(replaced[0].version > max(first[0].version, first[1].version), "a newer report has a higher version")
        #expect(recent["a"] == replaced[0].version, "stored just now: within the window")
        #expect(none.isEmpty)
    }

    @Test("large values are compressed with lz4 (migration v5-lz4) on a server that has it")
    func lz4() async throws {
        let url = try await TestPostgres.makeDatabase()
        _ = try await blocking { try PostgresStoreDatabase.open(try PostgresStoreURL(url)) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [url, "-X", "-A", "-t", "-c", """
                SELECT attrelid::regclass || '.' || attname || '=' || attcompression::text FROM pg_attribute
                WHERE (attrelid, attname) IN (('http_response'::regclass, 'body'), ('source_snapshot'::regclass, 'items'),
                                              ('fleet_report'::regclass, 'body')) ORDER BY 1
                """],
            environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["fleet_report.body=l", "http_response.body=l", "source_snapshot.items=l"])
    }
}
