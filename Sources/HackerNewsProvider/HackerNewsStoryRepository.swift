import Domain
import Foundation
import HTTPClient

/// Stories from the Hacker News Firebase API: a list's ids (`/v0/{list}stories.json`) and one item at a time
/// (`/v0/item/{id}.json`).
struct HackerNewsStoryRepository: Sendable {
    private let client: any HTTPFetching
    private let baseURL: URL
    let list: StoryList

    init(client: any HTTPFetching, baseURL: URL, list: StoryList) {
        self.client = client
        self.baseURL = baseURL
        self.list = list
    }

    func listRequest() -> HTTPRequest {
        .get(baseURL, path: "/v0/\(list.rawValue)stories.json", headers: ["Accept": "application/json"])
    }

    func itemRequest(_ id: Int) -> HTTPRequest {
        .get(baseURL, path: "/v0/item/\(id).json", headers: ["Accept": "application/json"])
    }

    /// The list's story ids, best first.
    func storyIDs(
        cancellation: CancellationToken, completion: @escaping @Sendable (Result<[Int], SourceError>) -> Void
    ) {
        let name = list.rawValue
        client.getJSON([Int].self, listRequest(), cancellation: cancellation) { result in
            completion(result.mapError { $0.prefixed("the \(name) stories list") })
        }
    }

    /// One story; an id the API answers `null` for, a deleted or dead item, or one without a title is an error.
    func story(
        _ id: Int, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<ItemResponseDTO, SourceError>) -> Void
    ) {
        client.send(itemRequest(id), cancellation: cancellation) { result in
            completion(result.flatMap { response in
                if String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "null" {
                    return .failure(SourceError(.notFound, "story \(id) does not exist (the API answered null)"))
                }
                return response.decode(ItemResponseDTO.self).flatMap { item in
                    if let problem = item.unavailable(asked: id) { return .failure(problem) }
                    return .success(item)
                }
            })
        }
    }
}
