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
