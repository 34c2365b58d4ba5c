import Domain
import Foundation
import HackerNewsProvider
import ProviderKit
import ProviderTesting

enum Fixture: String {
    case topStories = "hnpy_topstories_2018-01-04.json"
    case intel = "hnpy_item_16072368_story.json"
    case dropbox = "hnpy_item_8863_story.json"
    case job = "hnpy_item_192327_job.json"
    case null = "written_item_null.json"
    case recordedIDs = "written_list_of_recorded_ids.json"

    func response() throws -> FixtureResponse {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(rawValue)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try .file(url)
    }
}

func itemPath(_ id: Int) -> String { "/v0/item/\(id).json" }

extension FixtureServer {
    /// The list of the three recorded items at `/v0/{list}stories.json`, and each item where the API has it.
    func serveRecordedStories(list: String = "top") throws {
        route("/v0/\(list)stories.json", try Fixture.recordedIDs.response())
        route(itemPath(16072368), try Fixture.intel.response())
        route(itemPath(8863), try Fixture.dropbox.response())
        route(itemPath(192327), try Fixture.job.response())
    }
}

func options(server: FixtureServer, _ extra: JSONObject = [:]) -> JSONValue {
    var options: JSONObject = ["baseURL": .string(server.baseURL.absoluteString)]
    options.merge(extra) { $1 }
    return .object(options)
}

func run(_ options: JSONValue, concurrency: Int = 4) async throws -> SourceReport {
    let source = try HackerNewsProvider().makeSource(.testing(id: "hn", options: options, concurrency: concurrency))
    return await SourceRunner.run(source, id: "hn", provider: "hacker-news", concurrency: concurrency)
}
