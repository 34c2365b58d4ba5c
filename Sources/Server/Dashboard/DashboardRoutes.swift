import Domain
import Foundation
import Hummingbird
import Presentation

/// `GET /` (Presentation's `DashboardPage`: summary, filters, the table of sources), `/sources/{id}` (a
/// source's page and latest items), `/items` (the archive's newest items, or a search's), `/summary` and
/// `/cards/{id}` (fragments for the
/// script), the script and style sheet, the login form that sets the session cookie when a token is configured
/// (wrong tokens throttled per client address, `LoginThrottle`), and `POST /logout`, which clears it. Pages go
/// through the `RepresentationCache` like the API: rendered once per state, gzip when asked.
struct DashboardRoutes: Sendable {
    let state: ServeState
    let archive: ServedArchive
    let access: AccessControl
    let cache: RepresentationCache
    let logins: LoginThrottle
    let now: @Sendable () -> Date

    init(
        state: ServeState, archive: ServedArchive, access: AccessControl, cache: RepresentationCache,
        logins: LoginThrottle = LoginThrottle(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.state = state
        self.archive = archive
        self.access = access
        self.cache = cache
        self.logins = logins
        self.now = now
    }

    /// Only this server's own script and style; images from anywhere on the web (movie posters).
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'self'; img-src 'self' https: http:; script-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        .init("X-Content-Type-Options")!: "nosniff",
        .init("Referrer-Policy")!: "no-referrer",
    ]

    func register(on router: Router<ServeRequestContext>) {
        router.get("/") { request, _ in
            let loggedIn = access.requiresToken && AccessControl.cookie(AccessControl.cookieName, in: request) != nil
            return page(request, variant: loggedIn ? "session:" : "") { snapshot throws(RequestProblem) in
                let filter = try DashboardQuery.filter(APIRoutes.parameters(request))
                return DashboardPage(summary: state.summary(snapshot.sources), filter: filter, canLogOut: loggedIn)
                    .page(snapshot.sources, histories: state.histories)
            }
        }
        router.get("/summary") { request, _ in
            page(request) { snapshot throws(RequestProblem) in
                DashboardPage(summary: state.summary(snapshot.sources), filter: DashboardFilter()).summarySection(snapshot.sources)
            }
        }
        router.get("/items") { request, _ in
            await page(request) { snapshot async throws(RequestProblem) in
                var query: SearchQuery?
                var typed: String?
                var cursor: ArchiveCursor?
                for (name, value) in APIRoutes.parameters(request) {
                    switch name {
                    case "q" where typed == nil:
                        let text = value.trimmingCharacters(in: .whitespaces)
                        guard !text.isEmpty else { continue }
                        typed = text
                        do throws(SearchQuery.SyntaxError) {
                            query = try SearchQuery(text)
                        } catch {
                            throw RequestProblem(parameter: name, error.message)
                        }
                    case "cursor" where cursor == nil:
                        guard let after = ArchiveCursor(value) else { throw RequestProblem(parameter: name, "not a cursor this server gave") }
                        cursor = after
                    default:
                        throw RequestProblem(parameter: name, "unknown or repeated parameter (known: q, cursor)")
                    }
                }
                let selection = ArchiveQuery(
                    text: query, sourceIDs: snapshot.sources.map(\.id), limit: ItemsPage.pageSize, after: cursor)
                let found = try await archive.read { archive throws(SourceError) in try archive.items(selection) }
                return ItemsPage(query: typed, isContinued: cursor != nil).page(found.items, next: found.next?.text)
            }
        }
        router.get("/sources/:id") { request, context in
            let id = context.parameters.get("id")?.removingPercentEncoding ?? ""
            let canRefresh = access.mayRefresh(request)
            return await page(request, variant: canRefresh ? "refresh:" : "") { snapshot async throws(RequestProblem) in
                guard let source = snapshot.sources.first(where: { $0.id == id }) else {
                    throw RequestProblem(.notFound, parameter: "id", "no source \(id) is watched")
                }
                let card = SourceCard(canRefresh: canRefresh)
                return card.page(try await withItems(source, snapshot, limit: card.itemLimit), history: state.history(id))
            }
        }
        router.get("/cards/:id") { request, context in
            let id = context.parameters.get("id")?.removingPercentEncoding ?? ""
            let snapshot = state.snapshot
            guard let source = snapshot.sources.first(where: { $0.id == id }) else {
                return RequestProblem(.notFound, parameter: "id", "no source \(id) is watched").response
            }
            let card = SourceCard(canRefresh: access.mayRefresh(request))
            do throws(RequestProblem) {
                return html(card.card(try await withItems(source, snapshot, limit: card.itemLimit), history: state.history(id)))
            } catch {
                return error.response
            }
        }
        router.get("/dashboard.js") { _, _ in asset(DashboardAssets.script, "text/javascript; charset=utf-8") }
        router.get("/dashboard.css") { _, _ in asset(DashboardAssets.style, "text/css; charset=utf-8") }
        router.get("/favicon.ico") { _, _ in asset(Self.icon, "image/svg+xml") }
        router.get("/login") { _, _ in loginForm(failed: false) }
        router.post("/login") { request, context in try await login(request, from: context.clientAddress) }
        router.post("/logout") { _, _ in logout() }
    }

    /// A page of the current state: rendered once per state and target (and viewer `variant`), gzip when asked.
    private func page(
        _ request: Request, variant: String = "", render: (ServeState.Snapshot) throws(RequestProblem) -> String
    ) -> Response {
        let snapshot = state.snapshot
        do throws(RequestProblem) {
            return try cache.respond(to: request, version: snapshot.version, variant: variant) { () throws(RequestProblem) -> Representation in
                Self.page(try render(snapshot))
            }
        } catch {
            return error.response
        }
    }

    /// A page of the current state with what it reads from the archive.
    private func page(
        _ request: Request, variant: String = "",
        render: @escaping @Sendable (ServeState.Snapshot) async throws(RequestProblem) -> String
    ) async -> Response {
        let snapshot = state.snapshot
        do throws(RequestProblem) {
            return try await cache.respond(to: request, version: snapshot.version, variant: variant) { () async throws(RequestProblem) -> Representation in
                Self.page(try await render(snapshot))
            }
        } catch {
            return error.response
        }
    }

    private static func page(_ html: String) -> Representation {
        var headers = securityHeaders
        headers[.init("X-Robots-Tag")!] = "noindex"
        return Representation(Array(html.utf8), contentType: "text/html; charset=utf-8", headers: headers)
    }

    /// `source` with the first `limit` of its latest items read back from the archive.
    private func withItems(
        _ source: WatchSourceState, _ snapshot: ServeState.Snapshot, limit: Int
    ) async throws(RequestProblem) -> WatchSourceState {
        guard let report = source.report else { return source }
        var source = source
        source.report = try await archive.latest([report], ids: snapshot.latestItemIDs, limit: limit).first
        return source
    }

    /// Browsers ask for it on every page: a small mark rather than a logged 404.
    static let icon = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1a7f37"/></svg>"##

    private func html(_ text: String) -> Response {
        var headers = Self.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private func asset(_ text: String, _ type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "max-age=300"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    private func loginForm(failed: Bool) -> Response {
        guard access.requiresToken else { return Response(status: .seeOther, headers: [.location: "/"]) }
        var response = html("""
            <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>aggregate: log in</title><link rel="stylesheet" href="/dashboard.css"></head>
            <body><header><h1>aggregate</h1></header><main id="cards"><form class="card" method="post" action="/login">
            \(failed ? "<p class=\"error\">That is not this server's token.</p>" : "")
            <label>Token <input type="password" name="token" autocomplete="current-password" required></label>
            <button type="submit">Log in</button></form></main></body></html>
            """)
        if failed { response.status = .unauthorized }
        return response
    }

    /// The form's token, checked like a bearer one; a match sets the session cookie (a digest, never the token).
    private func login(_ request: Request, from address: String) async throws -> Response {
        guard access.requiresToken, let session = access.sessionValue else { return Response(status: .seeOther, headers: [.location: "/"]) }
        if let seconds = logins.retryAfter(for: address, at: now()) {
            var response = RequestProblem(.tooManyRequests, "too many wrong tokens from this address; try again in \(seconds) s").response
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        let body = try await request.body.collect(upTo: 4096)
        let form = String(buffer: body)
        let token = form.split(separator: "&").compactMap { pair -> String? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0] == "token" else { return nil }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }.first ?? ""
        guard access.accepts(token: token) else {
            logins.failed(address, at: now())
            return loginForm(failed: true)
        }
        logins.succeeded(address)
        return Response(status: .seeOther, headers: [
            .location: "/",
            .setCookie: "\(AccessControl.cookieName)=\(session); Path=/; HttpOnly; SameSite=Strict",
        ])
    }

    /// Clears the session cookie (an expired, empty one in its place) and sends the browser to the login form.
    /// The session value is a digest of the token, so a copy kept elsewhere stays valid until the token changes.
    private func logout() -> Response {
        Response(status: .seeOther, headers: [
            .location: access.requiresToken ? "/login" : "/",
            .setCookie: "\(AccessControl.cookieName)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict",
            .cacheControl: "no-store",
        ])
    }
}
