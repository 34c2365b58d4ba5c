import Domain
import Foundation
import Hummingbird
import Presentation

/// `GET /feed.atom` and `GET /feed.json`: the newest archived items through Presentation's feed renderers (the
/// ones `-f atom` and `-f jsonfeed` use), so ids are the same stable `urn:aggregate:<source>:<item>` and a reader
/// subscribed here sees each item once, also after it left its source. Newest first, the newest `limit` entries
/// (a reader polling every few minutes downloads a page, not the corpus); `?source=a,b` narrows the feed.
struct FeedRoutes: Sendable {
    /// Entries by default, and at most (`?limit=`).
    static let defaultLimit = 100
    static let maxLimit = 1_000

    let state: ServeState
    let archive: ServedArchive
    let cache: RepresentationCache

    func register(on router: Router<ServeRequestContext>) {
        router.get("/feed.atom") { request, _ in
            await feed(request, contentType: "application/atom+xml; charset=utf-8") { report, options in
                var text = ""
                AtomRenderer().render(report, options: options, to: &text)
                return text
            }
        }
        router.get("/feed.json") { request, _ in
            await feed(request, contentType: "application/feed+json; charset=utf-8") { report, options in
                var text = ""
                JSONFeedRenderer().render(report, options: options, to: &text)
                return text
            }
        }
    }

    private func feed(
        _ request: Request, contentType: String, render: @escaping @Sendable (AggregateReport, RenderOptions) -> String
    ) async -> Response {
        let snapshot = state.snapshot
        do throws(RequestProblem) {
            return try await cache.respond(to: request, version: snapshot.version) { () async throws(RequestProblem) -> Representation in
                let watched = Set(snapshot.sources.map(\.id))
                var selected: [String]?
                var limit = Self.defaultLimit
                var given: Set<String> = []
                for (name, value) in APIRoutes.parameters(request) {
                    guard name == "source" || name == "limit" else {
                        throw RequestProblem(parameter: name, "unknown parameter (known: limit, source)")
                    }
                    guard given.insert(name).inserted else { throw RequestProblem(parameter: name, "given more than once") }
                    if name == "limit" {
                        guard let number = Int(value), (1...Self.maxLimit).contains(number) else {
                            throw RequestProblem(parameter: name, "a whole number from 1 to \(Self.maxLimit)")
                        }
                        limit = number
                        continue
                    }
                    let ids = value.split(separator: ",").map(String.init)
                    if let unknown = ids.first(where: { !watched.contains($0) }) ?? (ids.isEmpty ? "(empty)" : nil) {
                        throw RequestProblem(parameter: "source", "unknown source \(unknown)")
                    }
                    selected = ids
                }
                let query = ArchiveQuery(sourceIDs: selected ?? snapshot.sources.map(\.id), order: .newest, limit: limit)
                let newest = try await archive.read { archive throws(SourceError) in try archive.items(query).items }
                let report = AggregateReport(archived: newest, sources: snapshot.itemSources, generatedAt: snapshot.report.generatedAt)
                let options = RenderOptions(feed: Self.metadata(request, sources: selected, watched: watched.count))
                return Representation(Array(render(report, options).utf8), contentType: contentType)
            }
        } catch {
            return error.response
        }
    }

    /// The feed's own addresses, from the Host the client used (the dashboard is the feed's page).
    /// Without a selection a feed over many sources is titled by their number, not a list of every id.
    static func metadata(_ request: Request, sources: [String]?, watched: Int) -> FeedMetadata {
        guard let authority = request.head.authority, let base = URL(string: "http://\(authority)/") else {
            return FeedMetadata()
        }
        return FeedMetadata(
            title: sources.map { "aggregate: " + $0.joined(separator: ", ") } ?? (watched > 10 ? "aggregate: \(watched) sources" : nil),
            link: base, selfURL: URL(string: request.uri.string, relativeTo: base)?.absoluteURL)
    }
}
