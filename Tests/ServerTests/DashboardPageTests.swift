import Foundation
import Testing

/// The page as a browser without JavaScript gets it.
@Suite("serve: the dashboard's HTML")
struct DashboardPageTests {
    @Test("a table of sources, failing first; each source's page escapes its text, links only http(s), has a refresh button for a loopback viewer; CSP")
    func page() async throws {
        let notes = #"{"id": "x1", "title": "<img src=x onerror=alert(1)>", "url": "javascript:alert(2)"}"# + "\n"
            + #"{"id": "x2", "title": "Fine", "url": "https://example.org/a?b=1&c=2"}"# + "\n"
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "defaults": {"refreshSeconds": 3600}, "sources": [
              {"id": "zeta", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
              {"id": "alpha", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}},
              {"id": "broken", "provider": "files", "options": {"paths": ["data/missing.ndjson"]}}
            ]}
            """, files: ["data/notes.ndjson": notes])
        try await harness.ready()
        let reply = try await harness.request("/")
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "text/html; charset=utf-8")
        #expect(reply.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        let html = reply.text
        let broken = try #require(html.range(of: #"<tr data-source="broken""#))
        let zeta = try #require(html.range(of: #"<tr data-source="zeta""#))
        let alpha = try #require(html.range(of: #"<tr data-source="alpha""#))
        #expect(broken.lowerBound < zeta.lowerBound && zeta.lowerBound < alpha.lowerBound, "failing first, then manifest order")
        #expect(html.contains(#"<span class="badge error">error <small>(notFound)</small></span>"#), "the status in words")
        #expect(html.contains(#"<li data-source="broken"><span class="badge error">error</span>"#), "needs attention")
        #expect(html.contains("<title>(1 failing) aggregate</title>"))
        #expect(!html.contains("<img src=x"), "no item markup on the overview")
        #expect(html.contains(#"<script src="/dashboard.js" defer></script>"#))

        let source = try await harness.request("/sources/zeta").text
        #expect(!source.contains("<img src=x"), "item text is escaped")
        #expect(source.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!source.contains("javascript:"), "no javascript: link")
        #expect(source.contains(#"href="https://example.org/a?b=1&amp;c=2""#))
        #expect(source.contains("data-refresh"), "without a token, anyone on this machine may refresh")
        #expect(try await harness.request("/dashboard.js").text.contains("EventSource"))
        #expect(try await harness.request("/dashboard.css").text.contains("prefers-color-scheme"))
        let card = try await harness.request("/cards/alpha")
        #expect(card.text.hasPrefix(#"<section class="card" data-source="alpha""#))
        #expect(try await harness.request("/cards/nope").status == 404)
        try await harness.stop()
    }

    @Test("with a token the page sends a person to the login form; the right token sets a session cookie, a wrong one does not")
    func login() async throws {
        let token = "login-token-0c9e1b"
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}]}
            """, files: ["data/notes.ndjson": ndjson([("n1", "One", nil)])], token: token)
        let page = try await harness.request("/")
        #expect(page.status == 303)
        #expect(page.header("Location") == "/login")
        #expect(try await harness.request("/login").text.contains(#"name="token""#))
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let wrong = try await harness.request("/login", method: .post, headers: form, body: "token=nope")
        #expect(wrong.status == 401)
        #expect(wrong.header("Set-Cookie") == nil)
        let right = try await harness.request("/login", method: .post, headers: form, body: "token=\(token)")
        #expect(right.status == 303)
        let cookie = try #require(right.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(!cookie.contains(token), "the cookie holds a digest, not the token")
        let session = String(cookie.split(separator: ";")[0])
        let dashboard = try await harness.request("/", headers: [("Cookie", session)])
        #expect(dashboard.status == 200)
        let source = try await harness.request("/sources/notes", headers: [("Cookie", session)])
        #expect(source.text.contains("data-refresh"), "an authenticated viewer gets refresh buttons")
        #expect(!dashboard.text.contains(token))
        try await harness.stop()
    }

    @Test("wrong tokens from one address: the sixth try within the minute is 429 with Retry-After, even with the right token; logout clears the cookie")
    func loginThrottleAndLogout() async throws {
        let token = "throttle-token-5d1a"
        let harness = try await ServeHarness.start(manifest: """
            {"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}]}
            """, files: ["data/notes.ndjson": ndjson([("n1", "One", nil)])], token: token)
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let session = try #require(try await harness.request("/login", method: .post, headers: form, body: "token=\(token)")
            .header("Set-Cookie").map { String($0.split(separator: ";")[0]) })
        let dashboard = try await harness.request("/", headers: [("Cookie", session)])
        #expect(dashboard.text.contains(#"action="/logout""#), "a logged-in viewer gets the log-out button")
        for attempt in 1...5 {
            let wrong = try await harness.request("/login", method: .post, headers: form, body: "token=guess\(attempt)")
            #expect(wrong.status == 401, "attempt \(attempt)")
        }
        let throttled = try await harness.request("/login", method: .post, headers: form, body: "token=\(token)")
        #expect(throttled.status == 429)
        let retryAfter = try #require(throttled.header("Retry-After").flatMap { Int($0) })
        #expect((1...60).contains(retryAfter))
        #expect(throttled.header("Set-Cookie") == nil, "no session while throttled, even for the right token")
        #expect(!throttled.text.contains(token))
        #expect(try await harness.request("/", headers: [("Cookie", session)]).status == 200, "a session already had stays")

        let logout = try await harness.request("/logout", method: .post, headers: [("Cookie", session)])
        #expect(logout.status == 303)
        #expect(logout.header("Location") == "/login")
        let cleared = try #require(logout.header("Set-Cookie"))
        #expect(cleared.hasPrefix("aggregate_session=;") && cleared.contains("Max-Age=0"), "\(cleared)")
        try await harness.stop()
    }
}
