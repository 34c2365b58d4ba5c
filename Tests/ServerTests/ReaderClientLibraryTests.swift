import Foundation
import ProviderTesting
@testable import Server
import Testing

/// A whole reader session driven by PyPI `google-reader` (Fixtures/reader_session.py), the client library by
/// Miniflux's maintainers. CI (`CI=true`) installs it (.ci/run) and the test never skips there; elsewhere it is
/// skipped, saying so, when the library is missing.
@Suite("serve: a reader session driven by the google-reader client library")
struct ReaderClientLibraryTests {
    static var libraryAvailable: Bool {
        (try? Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", "import google_reader"]))
            .map { process in process.waitUntilExit(); return process.terminationStatus == 0 } ?? false
    }

    static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || libraryAvailable }

    @Test("login, subscriptions = the manifest's sources, unread ids, contents, mark read, star, counts change, mark all read",
          .enabled(if: mustRun, "needs python3 google-reader (CI installs it; .ci/run)"))
    func session() async throws {
        try #require(Self.libraryAvailable, "CI=true: python3 google-reader must be installed (.ci/run)")
        let harness = try await ReaderFixture.start()
        _ = try await ReaderSession.login(harness)  // the archive holds every item
        let script = try #require(Bundle.module.url(forResource: "reader_session", withExtension: "py", subdirectory: "Fixtures"))
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, harness.base, ReaderFixture.username, ReaderFixture.password, "feed/news"],
            environment: ProcessInfo.processInfo.environment)
        try #require(result.status == 0, "reader_session.py: \(result.stderr)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let total = ReaderFixture.itemCount
        #expect(seen["wrongPasswordRefused"] as? Bool == true)
        #expect(seen["forgedTokenRefused"] as? Bool == true)
        #expect(seen["tokenGiven"] as? Bool == true)
        #expect(seen["userName"] as? String == ReaderFixture.username)
        #expect(seen["subscriptions"] as? [String] == ["feed/news", "feed/notes"], "the manifest's sources, in its order")
        #expect((seen["categories"] as? [String: [String]])?["feed/news"] == ["News"])
        #expect((seen["tags"] as? [String])?.contains("user/-/label/News") == true)
        #expect(seen["unreadBefore"] as? Int == total)
        #expect(seen["pagedSame"] as? Bool == true, "pages of two with continuations give the same ids")
        #expect(seen["contentIDs"] as? [String] == seen["longIDs"] as? [String])
        #expect((seen["titles"] as? [String])?.contains("Star City") == true)
        #expect((seen["titles"] as? [String])?.contains("Buy milk") == true, "a records source's items are articles too")
        #expect(seen["origins"] as? [String] == ["feed/news", "feed/notes"])
        let before = try #require(seen["countsBefore"] as? [String: Int])
        #expect(before["user/-/state/com.google/reading-list"] == total)
        #expect(before["feed/news"] == ReaderFixture.newsCount && before["user/-/label/News"] == ReaderFixture.newsCount)
        #expect(seen["unreadAfterRead"] as? Int == total - 1)
        #expect((seen["readIDs"] as? [String])?.count == 1)
        #expect((seen["starredIDs"] as? [String])?.count == 1)
        #expect((seen["countsAfterRead"] as? [String: Int])?["user/-/state/com.google/reading-list"] == total - 1)
        #expect(seen["categoriesAfter"] as? [[String]] == [["user/-/state/com.google/read", "user/-/state/com.google/reading-list"],
                                                        ["user/-/state/com.google/reading-list", "user/-/state/com.google/starred"]])
        #expect(seen["unreadAfterUnread"] as? Int == total)
        #expect(seen["feedUnreadAfterMarkAll"] as? Int == 0)
        #expect(seen["unreadAfterMarkAll"] as? Int == total - ReaderFixture.newsCount)
        let after = try #require(seen["countsAfterMarkAll"] as? [String: Int])
        #expect(after["feed/news"] == nil && after["feed/notes"] == total - ReaderFixture.newsCount)
        try await harness.stop()
    }
}
