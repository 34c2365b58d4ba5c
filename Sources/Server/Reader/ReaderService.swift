import App
import Crypto
import Dispatch
import Domain
import Foundation
import Logging
import Synchronization

/// What the reader APIs (Google Reader, Fever) serve from: the manifest's account, its sources as feeds, and the
/// store's archive, where read and starred state lives. Set from each container the server runs (its start and
/// every reload); a secret reference in the password is read on a thread of its own meanwhile.
final class ReaderService: Sendable {
    /// What one container gives.
    struct Setup: Sendable {
        var account: ReaderAccount?
        /// Why the account cannot be used (a variable not set, a secret file that cannot be read).
        var problem: String?
        var directory: ReaderDirectory
        var archive: @Sendable () -> (any ItemArchiveRepository)?
    }

    private struct State {
        var generation = 0
        var setup: Setup?
    }

    private let state = Mutex(State())

    /// Takes `container`'s account and sources; until its password is read the APIs answer 503. An account that
    /// cannot be used is logged (the variable or file named, never a value).
    func load(_ container: AppDIContainer, logger: Logger) {
        let directory = ReaderDirectory(container.readerFeeds)
        let generation = state.withLock { state in
            state.generation += 1
            state.setup = nil
            return state.generation
        }
        container.readerAccount { [self] result in
            let setup: Setup
            switch result {
            case .success(let account):
                setup = Setup(account: account, problem: nil, directory: directory, archive: { container.archive() })
            case .failure(let error):
                logger.warning("reader sync is unavailable: \(error.message)")
                setup = Setup(account: nil, problem: error.message, directory: directory, archive: { nil })
            }
            self.state.withLock { state in
                // A reload that came meanwhile wins.
                if state.generation == generation { state.setup = setup }
            }
        }
    }

    /// The setup, or why the reader APIs cannot answer now.
    func current() throws(ReaderProblem) -> Setup {
        guard let setup = state.withLock({ $0.setup }) else {
            throw ReaderProblem(.serviceUnavailable, "the reader account's password is still being read; try again")
        }
        if let problem = setup.problem {
            throw ReaderProblem(.serviceUnavailable, "the manifest's reader account cannot be used: \(problem)")
        }
        guard setup.account != nil else {
            throw ReaderProblem(.notFound, "reader sync is off: add \"reader\": {\"username\": …, \"password\": …} to the manifest")
        }
        return setup
    }

    /// Runs an archive call off the event loop; a store failure becomes a 503 with its message (never a 500).
    static func archive<T: Sendable>(
        _ setup: Setup, _ work: @escaping @Sendable (any ItemArchiveRepository) throws(SourceError) -> T
    ) async throws(ReaderProblem) -> T {
        try await ArchiveCall.offLoop(
            setup.archive, missing: "the store keeps no item archive here, so reader apps have nothing to read", work
        ).mapError { ReaderProblem(.serviceUnavailable, $0.message) }.get()
    }
}

/// The sources as reader apps see them: Google Reader's `feed/<id>` and `user/-/label/<tag>`, and the Fever API's
/// integer feed and group ids (stable digests of the source id and the tag, so a restart or a reordered
/// manifest keeps them).
struct ReaderDirectory: Sendable {
    let feeds: [ReaderFeed]
    let tags: [String]
    private let feedsByID: [String: ReaderFeed]
    let feverFeedIDs: [String: Int]
    private let sourcesByFeverFeed: [Int: String]
    let feverGroupIDs: [String: Int]
    private let tagsByFeverGroup: [Int: String]

    init(_ feeds: [ReaderFeed]) {
        self.feeds = feeds
        var byID: [String: ReaderFeed] = [:]
        for feed in feeds where byID[feed.id] == nil { byID[feed.id] = feed }
        feedsByID = byID
        var tags: [String] = []
        var seen: Set<String> = []
        for feed in feeds { for tag in feed.tags where seen.insert(tag).inserted { tags.append(tag) } }
        self.tags = tags.sorted()
        (feverFeedIDs, sourcesByFeverFeed) = Self.numbers(for: feeds.map(\.id), salt: "feed")
        (feverGroupIDs, tagsByFeverGroup) = Self.numbers(for: self.tags, salt: "group")
    }

    func feed(_ id: String) -> ReaderFeed? { feedsByID[id] }
    var sourceIDs: [String] { feeds.map(\.id) }
    func sourceIDs(tagged tag: String) -> [String] { feeds.filter { $0.tags.contains(tag) }.map(\.id) }
    func source(feverFeed number: Int) -> String? { sourcesByFeverFeed[number] }
    func tag(feverGroup number: Int) -> String? { tagsByFeverGroup[number] }

    /// Positive 31-bit numbers (clients store them as 32-bit integers), from a digest of each name; a collision
    /// takes the next free number, in name order, so the same names always get the same numbers.
    private static func numbers(for names: [String], salt: String) -> ([String: Int], [Int: String]) {
        var byName: [String: Int] = [:]
        var byNumber: [Int: String] = [:]
        for name in Set(names).sorted() {
            let digest = Array(SHA256.hash(data: Data("\(salt):\(name)".utf8)))
            var number = Int(digest[0] & 0x7f) << 24 | Int(digest[1]) << 16 | Int(digest[2]) << 8 | Int(digest[3])
            if number == 0 { number = 1 }
            while byNumber[number] != nil { number = number == Int(Int32.max) ? 1 : number + 1 }
            byName[name] = number
            byNumber[number] = name
        }
        return (byName, byNumber)
    }
}
