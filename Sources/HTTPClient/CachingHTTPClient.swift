import Domain
import Foundation
import Logging
import ProviderKit

/// An `HTTPFetching` layer that answers GET requests from a persistent `ResponseCacheStore`.
///
/// - A fresh stored response answers without a request.
/// - A stale one is revalidated with `If-None-Match` / `If-Modified-Since`; a 304 refreshes it and its
///   stored body answers.
/// - A 200 is stored for the source's TTL, or the server's `max-age` when shorter; `no-store` is never
///   stored (and drops what was), `no-cache` is stored but always revalidated.
/// - `--offline` answers from entries of any age and fails a request that has none, without the network;
///   `--no-cache` goes to the network every time but still stores.
///
/// What is stored is only the server's answer: no URL, no request header. A response whose body or
/// headers echo one of the request's secrets is not stored. Store failures never fail a request: the cache
/// is then simply not used. Stale-if-error is not done here but per source, by the composition root,
/// because a source fails as a whole (its deadline, several requests) rather than request by request.
public struct CachingHTTPClient: HTTPFetching {
    private let upstream: any HTTPFetching
    private let policy: ResponseCachePolicy
    private let logger: Logger?
    /// Told of each answer from the cache (requests that reach the network are recorded below the cache).
    private let recorder: (any HTTPRequestRecorder)?
    private let now: @Sendable () -> Date

    /// A cache over `upstream` for one source, as `policy` says; `recorder` is told of each answer the cache gives
    /// itself, and `now` is the clock freshness is judged by.
    public init(
        upstream: any HTTPFetching, policy: ResponseCachePolicy, logger: Logger? = nil,
        recorder: (any HTTPRequestRecorder)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.upstream = upstream
        self.recorder = recorder
        self.policy = policy
        self.logger = logger
        self.now = now
    }

    /// Only plain GETs without a body or caller-made conditions are cached.
    static func isCacheable(_ request: HTTPRequest) -> Bool {
        request.method == .get && request.body == nil && !request.headers.contains("If-None-Match")
            && !request.headers.contains("If-Modified-Since") && !request.headers.contains("Range")
    }

    /// Answers from the store when the policy allows, else asks `upstream` (revalidating a stale entry) and stores
    /// what may be stored; `completion` runs exactly once. On a shared store the work runs off the shared pool, as
    /// its calls may wait on a database server.
    public func fetch(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        // A shared store answers over the network and its lease may wait for another process: never on the pool.
        guard policy.store is any SharedResponseCacheStore else {
            return fetchNow(request, cancellation: cancellation, completion: completion)
        }
        Self.offPool { [self] in fetchNow(request, cancellation: cancellation, completion: completion) }
    }

    /// Runs `work` on a thread of its own (store calls that wait on a database server).
    private static func offPool(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread(block: work)
        thread.name = "aggregate.shared-cache"
        thread.start()
    }

    private func fetchNow(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        guard Self.isCacheable(request) else {
            if policy.mode == .offline {
                policy.activity.record(.offlineMiss)
                deliver(.failure(Self.offlineError), completion)
            } else {
                fetchWithinBudget(request, cancellation: cancellation, completion: completion)
            }
            return
        }
        let key = ResponseCacheKey.make(for: request)
        var stored = policy.mode == .refresh ? nil : lookup(key)
        var now = now()

        switch policy.mode {
        case .offline:
            guard let stored else {
                policy.activity.record(.offlineMiss)
                log(request, "not cached (offline)")
                deliver(.failure(Self.offlineError), completion)
                return
            }
            policy.activity.record(stored.isFresh(at: now) ? .hit : .staleHit(age: now.timeIntervalSince(stored.storedAt)))
            log(request, "cache hit (offline)")
            recorder?.record(source: policy.sourceID, .cacheHit)
            deliver(.success(Self.response(from: stored, for: request)), completion)
        case .normal, .refresh:
            if let stored, stored.isFresh(at: now) {
                policy.activity.record(.hit)
                log(request, "cache hit")
                recorder?.record(source: policy.sourceID, .cacheHit)
                deliver(.success(Self.response(from: stored, for: request)), completion)
                return
            }
            // Shared store: one process fetches, the others wait for its lease and then read what it stored.
            var lease: (any ResponseFetchLease)?
            if policy.mode == .normal, policy.leasesFetches, let shared = policy.store as? any SharedResponseCacheStore {
                lease = shared.acquireFetchLease(forKey: key, cancellation: cancellation)
                if lease != nil {
                    stored = lookup(key)
                    now = self.now()
                    if let stored, stored.isFresh(at: now) {
                        lease?.release()
                        policy.activity.record(.hit)
                        log(request, "cache hit (fetched by another process)")
                        recorder?.record(source: policy.sourceID, .cacheHit)
                        deliver(.success(Self.response(from: stored, for: request)), completion)
                        return
                    }
                }
            }
            var outgoing = request
            if let stored {
                if let etag = stored.header("ETag") { outgoing.headers["If-None-Match"] = etag }
                if let lastModified = stored.header("Last-Modified") { outgoing.headers["If-Modified-Since"] = lastModified }
            }
            let validating = stored != nil && outgoing.headers != request.headers
            let held = lease
            let revalidated = validating ? stored : nil
            fetchWithinBudget(outgoing, cancellation: cancellation) { [self] result in
                guard held != nil || policy.store is any SharedResponseCacheStore else {
                    return completion(handle(result, for: request, key: key, stored: revalidated))
                }
                // The store is written before the lease goes, so whoever waited for it finds the response.
                Self.offPool { [self] in
                    let answer = handle(result, for: request, key: key, stored: revalidated)
                    held?.release()
                    completion(answer)
                }
            }
        }
    }

    /// The upstream fetch. With a shared store it keeps the shared rate-limit budget: a limit another process
    /// learnt for this host and credential (429, an exhausted quota, a `Retry-After`) answers as the service
    /// would, without a request, until it lifts; a limit learnt here is stored for the others.
    private func fetchWithinBudget(
        _ request: HTTPRequest, cancellation: CancellationToken,
        completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        guard let shared = policy.store as? any SharedResponseCacheStore else {
            return upstream.fetch(request, cancellation: cancellation, completion: completion)
        }
        let budget = ResponseCacheKey.budgetKey(for: request)
        let now = now()
        if let until = try? shared.rateLimit(budget), until > now {
            let seconds = Int(until.timeIntervalSince(now).rounded(.up))
            log(request, "rate limited for \(seconds) s more (learnt by a process sharing the store): not sent")
            let limited = HTTPResponse(
                status: 429, headers: HTTPHeaders([("Retry-After", String(seconds))]), body: Data(), url: request.url)
            return deliver(.success(limited), completion)
        }
        upstream.fetch(request, cancellation: cancellation) { [self] result in
            guard case .success(let response) = result, let until = Self.limitLearnt(from: response, now: self.now()) else {
                return completion(result)
            }
            Self.offPool {
                try? shared.recordRateLimit(budget, until: until)
                completion(result)
            }
        }
    }

    /// Until when `response` says not to ask again: a rate limit's reset, or a `Retry-After` on a 503.
    static func limitLearnt(from response: HTTPResponse, now: Date) -> Date? {
        if response.isRateLimited, let wait = response.rateLimitWait(now: now) { return now.addingTimeInterval(wait) }
        if response.status == 503, let wait = response.retryAfter(now: now) { return now.addingTimeInterval(wait) }
        return nil
    }

    private static var offlineError: SourceError {
        SourceError(.network, "not cached, and --offline allows no network")
    }

    private func handle(
        _ result: Result<HTTPResponse, SourceError>, for request: HTTPRequest, key: String, stored: StoredResponse?
    ) -> Result<HTTPResponse, SourceError> {
        guard case .success(let response) = result else {
            policy.activity.record(policy.mode == .refresh ? .bypassed : .miss)
            return result
        }
        let now = now()
        if let maxAge = Self.cacheControl(response.headers)["max-age"].flatMap({ $0 }).flatMap(Double.init), maxAge > 0 {
            policy.activity.noteServerFreshness(until: now.addingTimeInterval(maxAge))
        }
        if response.status == 304, let stored {
            let expiresAt = now.addingTimeInterval(lifetime(of: response, fallback: stored))
            try? policy.store.refresh(key: key, storedAt: now, expiresAt: expiresAt)
            policy.activity.record(.revalidated)
            return .success(Self.response(from: stored, for: request, retries: response.retries))
        }
        policy.activity.record(policy.mode == .refresh ? .bypassed : .miss)
        let directives = Self.cacheControl(response.headers)
        if directives["no-store"] != nil {
            try? policy.store.removeResponse(forKey: key)
        } else if response.status == 200, !Self.echoesSecret(response, of: request) {
            let entry = StoredResponse(
                status: response.status,
                headers: response.headers
                    .filter { !Self.unstoredHeaders.contains($0.name.lowercased()) }
                    .map { StoredResponse.Header(name: $0.name, value: $0.value) },
                body: response.body, storedAt: now, expiresAt: now.addingTimeInterval(lifetime(of: response, fallback: nil)))
            try? policy.store.store(entry, forKey: key, sourceID: policy.sourceID)
        }
        return result
    }

    /// Headers that set or carry credentials are never stored.
    static let unstoredHeaders: Set<String> = Redactor.secretHeaderNames.union(["set-cookie", "set-cookie2"])

    /// Seconds a response may be used without asking: the TTL, or the server's stricter `max-age`
    /// (`no-cache` means 0). A 304 without `Cache-Control` keeps the stored response's own directives.
    private func lifetime(of response: HTTPResponse?, fallback: StoredResponse?) -> TimeInterval {
        var directives: [String: String?] = [:]
        if let response { directives = Self.cacheControl(response.headers) }
        if directives.isEmpty, let fallback, let value = fallback.header("Cache-Control") {
            directives = Self.cacheControl(HTTPHeaders([("Cache-Control", value)]))
        }
        var seconds = policy.ttlSeconds
        if directives["no-cache"] != nil { seconds = 0 }
        if let maxAge = directives["max-age"].flatMap({ $0 }).flatMap(Double.init) { seconds = min(seconds, max(0, maxAge)) }
        return seconds
    }

    /// `Cache-Control` directives, lowercased names, unquoted values.
    static func cacheControl(_ headers: HTTPHeaders) -> [String: String?] {
        var directives: [String: String?] = [:]
        for field in headers.values(for: "Cache-Control") {
            for part in field.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
                directives[name] = pieces.count > 1 ? pieces[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            }
        }
        return directives
    }

    /// Whether the server echoed a credential of the request back in what would be stored (then the response
    /// is not kept on disk).
    static func echoesSecret(_ response: HTTPResponse, of request: HTTPRequest) -> Bool {
        let secrets = request.secrets + ResponseCacheKey.credentialMaterial(of: request).compactMap { material in
            material.split(separator: ":", maxSplits: 2).last.map(String.init)
        }.filter { $0.count >= 6 }
        return secrets.contains { secret in
            let bytes = Data(secret.utf8)
            return response.body.range(of: bytes) != nil
                || response.headers.contains { !unstoredHeaders.contains($0.name.lowercased()) && $0.value.contains(secret) }
        }
    }

    static func response(from stored: StoredResponse, for request: HTTPRequest, retries: Int = 0) -> HTTPResponse {
        HTTPResponse(
            status: stored.status, headers: HTTPHeaders(stored.headers.map { ($0.name, $0.value) }), body: stored.body,
            url: request.url, retries: retries)
    }

    private func lookup(_ key: String) -> StoredResponse? {
        do {
            return try policy.store.response(forKey: key)
        } catch {
            logger?.warning("cache unreadable, fetching instead: \(error.message)")
            return nil
        }
    }

    private func deliver(
        _ result: Result<HTTPResponse, SourceError>, _ completion: @escaping @Sendable (Result<HTTPResponse, SourceError>) -> Void
    ) {
        DispatchQueue.responseDelivery.async { completion(result) }
    }

    private func log(_ request: HTTPRequest, _ outcome: String) {
        var metadata: Logger.Metadata = [:]
        metadata["source"] = .string(policy.sourceID)
        logger?.info("\(request.method.rawValue) \(request.redactedURL) → \(outcome)", metadata: metadata)
    }
}
