import Foundation
import HTTPClient
import Testing

@Suite("Retry policy")
struct RetryPolicyTests {
    @Test("Retry-After is read as seconds or as an HTTP date")
    func parsesRetryAfter() throws {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("120", now: now) == 120)
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == 0, "a date in the past means now")
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
    }

    @Test("backoff grows exponentially, with jitter, up to the cap")
    func backoff() {
        let policy = RetryPolicy(maxRetries: 5, baseDelay: 1, maxDelay: 4)
        for _ in 0..<20 {
            #expect((0.5...1).contains(policy.backoff(forRetry: 0)))
            #expect((1...2).contains(policy.backoff(forRetry: 1)))
            #expect((2...4).contains(policy.backoff(forRetry: 2)))
            #expect((2...4).contains(policy.backoff(forRetry: 9)))
        }
        #expect(RetryPolicy().maxRetries == 2)
    }

    @Test("429, 5xx and a 403 with Retry-After are retryable; other 4xx are not")
    func retryableStatuses() {
        func response(_ status: Int, _ headers: HTTPHeaders = [:]) -> HTTPResponse {
            HTTPResponse(status: status, headers: headers, url: URL(string: "https://example.com")!)
        }
        #expect(RetryPolicy.isRetryable(response(429)))
        #expect(RetryPolicy.isRetryable(response(500)))
        #expect(RetryPolicy.isRetryable(response(503)))
        #expect(RetryPolicy.isRetryable(response(403, ["retry-after": "60"])))
        #expect(!RetryPolicy.isRetryable(response(403)))
        #expect(!RetryPolicy.isRetryable(response(404)))
        #expect(!RetryPolicy.isRetryable(response(401)))
    }
}

@Suite("Rate-limit waits")
struct RateLimitWaitTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    static func response(_ status: Int, _ headers: HTTPHeaders) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, url: URL(string: "https://api.example.com/x")!)
    }

    @Test("Retry-After wins; an exhausted quota waits until its reset; otherwise the server did not say")
    func waits() {
        let reset = String(Int(Self.now.timeIntervalSince1970) + 90)
        #expect(Self.response(429, ["Retry-After": "5", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset])
            .rateLimitWait(now: Self.now) == 5)
        #expect(Self.response(429, ["x-ratelimit-remaining": "0", "x-ratelimit-reset": reset]).rateLimitWait(now: Self.now) == 90)
        #expect(Self.response(429, ["X-RateLimit-Remaining": "3", "X-RateLimit-Reset": reset]).rateLimitWait(now: Self.now) == nil)
        #expect(Self.response(429, [:]).rateLimitWait(now: Self.now) == nil)
    }

    @Test("the reset is described as a UTC time and how long from now, in words")
    func resetDescription() {
        let reset = Int(Self.now.timeIntervalSince1970)
        for (seconds, words) in [(42, "42 s"), (120, "2 min"), (843, "14 min 3 s"), (3600, "1 h"), (3900, "1 h 5 min")] {
            let response = Self.response(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(reset + seconds)])
            let at = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(reset + seconds)))
            #expect(response.rateLimitResetDescription(now: Self.now) == "resets at \(at) (in \(words))")
        }
    }
}
