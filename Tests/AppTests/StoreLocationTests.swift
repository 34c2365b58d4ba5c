@testable import App
import Foundation
import ProviderTesting
import Testing

@Suite("Which store a process uses")
struct StoreLocationTests {
    @Test("AGGREGATE_STORE wins over the manifest's store.url, whose ${VAR}s are substituted; neither means SQLite")
    func resolution() throws {
        let manifest = "${DATABASE_URL}"
        let fromManifest = StoreLocation.resolve(
            manifestURL: manifest, environment: ["DATABASE_URL": "postgres://team:pw@db.internal/agg"])
        let fromEnvironment = StoreLocation.resolve(
            manifestURL: manifest,
            environment: ["DATABASE_URL": "postgres://team:pw@db.internal/agg", "AGGREGATE_STORE": "postgres://other@db2/x"])
        let neither = StoreLocation.resolve(manifestURL: nil, environment: ["AGGREGATE_HOME": "/tmp/agg-home"])

        guard case .postgres(let url) = fromManifest else { Issue.record("expected PostgreSQL: \(fromManifest)"); return }
        #expect(url.host == "db.internal" && url.database == "agg")
        #expect(fromManifest.displayName == "postgres://team:***@db.internal:5432/agg")
        guard case .postgres(let other) = fromEnvironment else { Issue.record("expected PostgreSQL"); return }
        #expect(other.host == "db2")
        guard case .sqlite(let file) = neither else { Issue.record("expected SQLite"); return }
        #expect(file.path == "/tmp/agg-home/aggregate.sqlite")
        #expect(!neither.isShared && fromManifest.isShared)
    }

    @Test("a missing variable or a URL that is not postgres:// is a problem that names no password")
    func problems() {
        let missing = StoreLocation.resolve(manifestURL: "${DATABASE_URL}", environment: [:])
        let notPostgres = StoreLocation.resolve(manifestURL: nil, environment: ["AGGREGATE_STORE": "mysql://u:hunter2@h/d"])
        let badMode = StoreLocation.resolve(manifestURL: nil, environment: ["AGGREGATE_STORE": "postgres://u:hunter2@h/d?sslmode=x"])
        for location in [missing, notPostgres, badMode] {
            guard case .invalid(let message) = location else { Issue.record("expected a problem: \(location)"); continue }
            #expect(!message.contains("hunter2"), "\(message)")
        }
        if case .invalid(let message) = missing { #expect(message.contains("$DATABASE_URL")) }
    }

    @Test("one opener: a SQLite file gives every repository and what store info prints; an invalid store says why")
    func opening() throws {
        let file = try ScratchDirectory.make("store-open").appendingPathComponent("aggregate.sqlite")
        let (opened, warnings) = StoreLocation.sqlite(file).open()
        let store = try #require(opened)
        #expect(warnings.isEmpty && !store.isShared && store.fleet == nil)
        #expect(try store.info() == ["store: SQLite (one machine)", "file: \(file.path)"])
        #expect(try store.maintenance.stats(sourceID: nil, now: Date()).isEmpty)
        #expect(try store.outbox.counts().isEmpty)

        let (none, why) = StoreLocation.invalid("the store must be a postgres://user@host:port/database URL").open()
        #expect(none == nil && why == ["the store must be a postgres://user@host:port/database URL"])
    }
}
