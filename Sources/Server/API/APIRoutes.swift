import App
import Domain
import Foundation
import Hummingbird
import Presentation

/// The JSON API, the probes and `/metrics`: each route reads the latest state (items from the store's archive)
/// and renders it with Presentation's renderers; nothing here runs a source (a refresh asks the watch).
struct APIRoutes: Sendable {
    let state: ServeState
    let archive: ServedArchive
    let watcher: any ServedSources
    let access: AccessControl
    let cache: RepresentationCache

    func register(on router: Router<ServeRequestContext>) {
        router.get("/api/report") { request, _ in await report(request) }
        router.get("/api/items") { request, _ in await items(request) }
        router.get("/api/sources") { request, _ in sources(request) }
        router.post("/api/sources/:id/refresh") { request, context in
            refresh(request, id: context.parameters.get("id") ?? "")
        }
        router.get("/api/openapi.json") { request, _ in
            respond(request, version: state.snapshot.version) { () throws(RequestProblem) -> Representation in
                Representation(Array(OpenAPIDocument.json.utf8) + [UInt8(ascii: "\n")], contentType: "application/json")
            }
        }
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/readyz") { _, _ in
            let ready = state.isReady
            return Response(
                status: ready ? .ok : .serviceUnavailable, headers: [.contentType: "text/plain"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ready ? "ready\n" : "first cycle not done\n")))
        }
        router.get("/metrics") { _, _ in
            state.metrics.eventClients(state.events.clientCount)
            state.metrics.fleet(state.summary(state.snapshot.sources))
            return Response.metrics(state.metrics.exposition())
        }
    }

    /// `--format json` of the sources that finished a cycle, a page of them at a time (manifest order): the
    /// body is the contract's document over the page's sources, their latest items read from the archive, and a
    /// `Link: <…>; rel="next"` header names the next page while there is one. `limit` sources per page
    /// (1…1,000, 100), `cursor` from that link.
    func report(_ request: Request) async -> Response {
        let snapshot = state.snapshot
        return await respond(request, version: snapshot.version) { () async throws(RequestProblem) -> Representation in
            let page = try SourcePage(Self.parameters(request), route: .report)
            var report = snapshot.report
            let (sources, next) = try page.slice(report.sources, id: \.id)
            report.sources = try await archive.latest(sources, ids: snapshot.latestItemIDs)
            var text = ""
            JSONRenderer(pretty: false).render(report, options: RenderOptions(), to: &text)
            return Representation(Array(text.utf8), contentType: "application/json", headers: Self.link(page, next))
        }
    }

    /// A page of archived items (`ItemQuery`) in the contract's item shape, and the cursor of the next page.
    func items(_ request: Request) async -> Response {
        let snapshot = state.snapshot
        return await respond(request, version: snapshot.version) { () async throws(RequestProblem) -> Representation in
            let query = try ItemQuery(Self.parameters(request), watched: snapshot.sources.map(\.id)).archive
            let page = try await archive.read { archive throws(SourceError) in try archive.items(query) }
            var writer = JSONWriter(capacity: 16 * 1024)
            writer.beginObject()
            writer.key("items")
            writer.beginArray()
            for entry in page.items { writer.item(entry.item, source: entry.sourceID) }
            writer.endArray()
            writer.key("nextCursor")
            writer.string(page.next?.text)
            writer.endObject()
            writer.byte(UInt8(ascii: "\n"))
            return Representation(writer.bytes, contentType: "application/json")
        }
    }

    /// Each source's state, a page of sources at a time (1,000 by default), as `/api/report` pages.
    func sources(_ request: Request) -> Response {
        let snapshot = state.snapshot
        return respond(request, version: snapshot.version) { () throws(RequestProblem) -> Representation in
            let page = try SourcePage(Self.parameters(request), route: .sources)
            let (sources, next) = try page.slice(snapshot.sources, id: \.id)
            return Representation(ServeJSON.sources(sources), contentType: "application/json", headers: Self.link(page, next))
        }
    }

    private static func link(_ page: SourcePage, _ next: String?) -> HTTPFields {
        guard let next else { return [:] }
        var headers = HTTPFields()
        headers[.init("Link")!] = page.link(after: next)
        return headers
    }

    /// 202 and the id once the watch took it; refused without the token when one is configured, and from
    /// another origin (a page elsewhere cannot make a browser refresh: browsers send `Origin` with a POST).
    func refresh(_ request: Request, id: String) -> Response {
        guard access.mayRefresh(request) else { return AccessMiddleware<ServeRequestContext>.unauthorized }
        if let origin = request.headers[.origin],
           URL(string: origin).map({ "\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" }) != request.head.authority {
            return RequestProblem(.forbidden, "a refresh from another origin is refused").response
        }
        guard watcher.refresh(id) else {
            return RequestProblem(.notFound, parameter: "id", "no source \(id) is watched").response
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("id")
        writer.string(id)
        writer.key("status")
        writer.string("refreshing")
        writer.endObject()
        writer.byte(UInt8(ascii: "\n"))
        return Response(
            status: .accepted, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }

    private func respond(
        _ request: Request, version: Int, render: () throws(RequestProblem) -> Representation
    ) -> Response {
        do throws(RequestProblem) {
            return try cache.respond(to: request, version: version, render: render)
        } catch {
            return error.response
        }
    }

    private func respond(
        _ request: Request, version: Int, reading render: @Sendable () async throws(RequestProblem) -> Representation
    ) async -> Response {
        do throws(RequestProblem) {
            return try await cache.respond(to: request, version: version, reading: render)
        } catch {
            return error.response
        }
    }

    /// The query's name/value pairs, percent-decoded, in order.
    static func parameters(_ request: Request) -> [(name: String, value: String)] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
