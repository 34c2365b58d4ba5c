import Foundation
import Presentation
import ProviderTesting
@testable import Server
import Testing

/// The dashboard in headless Chromium driven by Selenium (Fixtures/dashboard_check.py). CI (`CI=true`) installs
/// chromium, chromium-driver and selenium and the test never skips there; elsewhere it is skipped, saying so,
/// when they are missing.
@Suite("serve: the dashboard in a real browser")
struct DashboardBrowserTests {
    static var browserAvailable: Bool {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
            .contains { FileManager.default.isExecutableFile(atPath: $0) }
        let driver = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
        let selenium = (try? Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", "import selenium"]))
            .map { process in process.waitUntilExit(); return process.terminationStatus == 0 } ?? false
        return chromium && driver && selenium
    }

    static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || browserAvailable }

    @Test("each source's page lays its items out by kind; its badge turns to error live; no console errors",
          .enabled(if: mustRun, "needs chromium, chromium-driver and python3 selenium (CI installs them; .ci/run)"))
    func dashboard() async throws {
        try #require(Self.browserAvailable, "CI=true: chromium, chromium-driver and selenium must be installed (.ci/run)")
        let fixtures = try await FixtureServer.start()
        func fixture(_ name: String, _ ext: String) throws -> URL {
            try #require(Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"))
        }
        fixtures.route("/news.xml", try .file(fixture("rss2_spec_sample_liftoff_news", "xml"), contentType: "application/rss+xml"))
        fixtures.route("/repos/octo-org/octo-repo/issues", try .file(fixture("octokit_issues_page1_2022-07-19.body", "json")))
        fixtures.route("/data/2.5/weather", try .file(fixture("success_zocca_docs_example_standard_units_pyopenweathermap", "json")))
        fixtures.route("/3/search/movie", try .file(fixture("jdrouet_search-movie", "json")))
        // Posters: a 1×1 PNG for any image path, so the browser loads every image from loopback.
        fixtures.fallback(FixtureResponse(status: 200, headers: [("Content-Type", "image/png")], body: Data(base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")!))
        let base = fixtures.baseURL.absoluteString
        let token = "dashboard-token-51c0e7"
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
              {"id": "weather", "provider": "openweather", "options": {"cities": ["Zocca"], "apiKey": "k", "baseURL": "\(base)"}},
              {"id": "issues", "provider": "github", "options": {"repos": ["octo-org/octo-repo"], "baseURL": "\(base)"}},
              {"id": "movies", "provider": "tmdb", "options": {"query": "RRR", "apiKey": "k", "baseURL": "\(base)", "imageBaseURL": "\(base)/images/"}},
              {"id": "news", "provider": "feed", "options": {"urls": ["\(base)/news.xml"]}},
              {"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}
            ]}
            """, files: ["data/notes.ndjson": ndjson([("n1", "<script>alert(1)</script> & co", "2026-11-01T10:00:00Z")])], token: token)
        try await harness.ready()

        let script = try fixture("dashboard_check", "py")
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, harness.base, token, harness.directory.appendingPathComponent("data/notes.ndjson").path, "notes"],
            environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "dashboard_check.py: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let before = try #require(json["before"] as? [[String: Any]])
        #expect(before.map { $0["source"] as? String } == ["weather", "issues", "movies", "news", "notes"], "the table in manifest order")
        #expect(before.allSatisfy { $0["status"] as? String == "ok" && $0["badge"] as? String == "ok" })
        func card(_ id: String, in cards: [[String: Any]]) -> [String: Any] { cards.first { $0["source"] as? String == id } ?? [:] }
        func layout(_ id: String) -> [String] { card(id, in: before)["layout"] as? [String] ?? [] }
        func items(_ id: String) -> [String] { card(id, in: before)["items"] as? [String] ?? [] }
        func text(_ id: String) -> String { card(id, in: before)["text"] as? String ?? "" }
        #expect(layout("weather") == ["div.cities"])
        #expect(text("weather").contains("Zocca"))
        #expect(layout("issues") == ["ul.issues"])
        #expect(items("issues").count == 3)
        #expect(text("issues").contains("#13") && text("issues").contains("Test issue 13"))
        #expect(layout("movies") == ["div.movies"])
        #expect(!items("movies").isEmpty)
        #expect((card("movies", in: before)["images"] as? [String] ?? []).allSatisfy { $0.hasPrefix(base + "/images/") })
        #expect(layout("news") == ["ul.entries"])
        #expect(items("news").count == 4)
        #expect(text("news").contains("Liftoff News"))
        #expect(layout("notes") == ["table.records"])
        #expect(text("notes").contains("<script>alert(1)</script> & co"), "item text shown as text, not markup")

        let after = try #require(json["after"] as? [[String: Any]])
        // The file is gone: the source fails, and the store serves its last good copy (stale, with its age).
        let status = card("notes", in: after)["status"] as? String
        #expect(status == "stale" || status == "error", "\(status ?? "nil")")
        #expect((card("notes", in: after)["badge"] as? String)?.hasPrefix(status ?? "?") == true)
        #expect((card("notes", in: after)["text"] as? String)?.contains("notFound") == true, "the error's kind is on the card")
        #expect(json["samePage"] as? Bool == true, "changed live, without a reload")
        // A page left closes its event stream: streams of pages kept for "back" left the next page none of the
        // browser's six connections to the host (it waited about a minute).
        #expect(json["streams"] as? [Int] == [1, 1], "only the shown page's stream is open, also after going back")
        #expect(json["freshAfterBack"] as? Bool == true, "a page kept for back (its stream closed) loads afresh")
        try checkBadgeContrast(try #require(json["contrast"] as? [String: Any]))
        #expect((json["consoleErrors"] as? [String]) == [], "\(json["consoleErrors"] ?? "")")
        #expect(!result.stdout.contains(token), "no token in any page")
        try await harness.stop()
        await fixtures.stop()
    }

    /// Every badge the page showed (the broken source's in the table, under "Needs attention" and on its card)
    /// and a probe of every status in each place a badge sits, in both colour schemes: its text on its own colour
    /// at WCAG AA (4.5:1 or more), opaque, and not dimmed by anything around it.
    private func checkBadgeContrast(_ contrast: [String: Any]) throws {
        let states = Set(DashboardStatus.allCases.map(\.rawValue))
        for scheme in ["light", "dark"] {
            let badges = try #require(contrast[scheme] as? [[String: Any]], "\(scheme)")
            let probed = Set(badges.filter { ($0["where"] as? String)?.hasSuffix("probe") == true }.compactMap { $0["state"] as? String })
            #expect(probed == states, "\(scheme): every status probed")
            let real = badges.filter { ($0["where"] as? String)?.hasSuffix("probe") == false }
            #expect(real.contains { $0["where"] as? String == "attention" && ["error", "stale"].contains($0["state"] as? String) },
                    "\(scheme): the broken source's badge under Needs attention")
            #expect(real.contains { $0["where"] as? String == "table" && ["error", "stale"].contains($0["state"] as? String) },
                    "\(scheme): the broken source's badge in the table")
            for badge in badges {
                let ratio = badge["ratio"] as? Double ?? 0
                #expect(ratio >= 4.5, "\(scheme) \(badge["where"] ?? "") \(badge["state"] ?? ""): \(badge["color"] ?? "") on \(badge["background"] ?? "") is \(ratio):1")
                #expect(badge["opaque"] as? Bool == true && badge["opacity"] as? Double == 1, "\(scheme) \(badge)")
            }
        }
    }

    @Test("1,000 sources: the summary's counts, a source gone wrong in the attention list live, search to one source, its page with its items; / under 300 KB gzipped",
          .enabled(if: mustRun, "needs chromium, chromium-driver and python3 selenium (CI installs them; .ci/run)"))
    func fleet() async throws {
        try #require(Self.browserAvailable, "CI=true: chromium, chromium-driver and selenium must be installed (.ci/run)")
        let count = 1_000
        let perSource = 50
        var sources: [String] = []
        var files: [String: String] = [:]
        for index in 0..<count {
            let id = String(format: "s%04d", index)
            sources.append(#"{"id": "\#(id)", "provider": "files", "options": {"paths": ["data/\#(id).ndjson"]}}"#)
            files["data/\(id).ndjson"] = ndjson((0..<perSource).map { item in
                ("\(id)-\(item)", "Item \(item) of \(id)", "2026-11-\(String(format: "%02d", 1 + item % 28))T\(String(format: "%02d", index % 24)):00:00Z")
            })
        }
        let harness = try await ServeHarness.start(manifest: #"{"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": ["#
            + sources.joined(separator: ",\n") + "]}", files: files)
        try await harness.ready()

        let gzipped = try await harness.request("/", headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped.header("Content-Encoding") == "gzip")
        #expect(gzipped.body.count <= 300 * 1024, "\(gzipped.body.count) bytes")
        let feed = try await FeedCheck.feedparser(try await harness.request("/feed.atom").text)
        #expect(!feed.bozo && feed.entries.count == 100)

        let script = try #require(Bundle.module.url(forResource: "dashboard_scale_check", withExtension: "py", subdirectory: "Fixtures"))
        let screenshot = ProcessInfo.processInfo.environment["AGGREGATE_DASHBOARD_SCREENSHOT"] ?? ""
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, harness.base, harness.directory.appendingPathComponent("data").path, "s0100", "s0777"]
                + (screenshot.isEmpty ? [] : [screenshot]),
            environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "dashboard_scale_check.py: \(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let before = try #require(json["before"] as? [String: String])
        #expect(before["sources"] == "1000" && before["ok"] == "1000" && before["error"] == "0")
        #expect(before["items"] == "50000")
        #expect(before["new"] == "50000", "every item is new to a fresh store's history")
        #expect(json["rows"] as? Int == 250, "a page of the table")
        #expect(json["headers"] as? [String] == ["Source", "Status ↑", "Provider", "Items", "Last success", "Duration", "Next refresh", "Last refreshes"])
        #expect(json["attention"] as? String == "error", "the removed file's source, listed live")
        #expect((json["row"] as? [String])?.first == "error", "its row changed in place")
        let after = try #require(json["after"] as? [String: String])
        #expect(after["error"] == "1" && after["ok"] == "999")
        #expect(json["title"] as? String == "(1 failing) aggregate")
        #expect(json["samePage"] as? Bool == true, "changed live, without a reload")
        #expect(json["searchRows"] as? [String] == ["s0777"])
        #expect(json["searchValue"] as? String == "s0777", "the form keeps the search")
        let page = try #require(json["sourcePage"] as? [String: Any])
        #expect(page["source"] as? String == "s0777" && page["items"] as? Int == perSource)
        #expect((json["newest"] as? [String])?.count == 50)
        #expect((json["consoleErrors"] as? [String]) == [], "\(json["consoleErrors"] ?? "")")
        try await harness.stop()
    }
}
