import Foundation
import HTTPClient
import Testing

@Suite("A request's URL: base URL, path and query")
struct HTTPRequestURLTests {
    @Test("a base URL with a path keeps it when a request path is appended")
    func baseURLPath() {
        let url = HTTPRequest.url(URL(string: "https://ghe.example.com/api/v3/")!, path: "/repos/a/b/issues")
        #expect(url.absoluteString == "https://ghe.example.com/api/v3/repos/a/b/issues")
    }

    @Test("a base URL's encoded path and its own query survive; the appended path is encoded once")
    func baseURLEncodingAndQuery() {
        let base = URL(string: "https://git.example.com/proxy/group%2Fproject/?key=a%2Bb")!
        let url = HTTPRequest.url(base, path: "/v1/a b%", query: [URLQueryItem(name: "q", value: "x&y")])
        #expect(url.absoluteString == "https://git.example.com/proxy/group%2Fproject/v1/a%20b%25?key=a%2Bb&q=x%26y")
        let plain = HTTPRequest.url(URL(string: "https://example.com?key=1")!, path: "/items")
        #expect(plain.absoluteString == "https://example.com/items?key=1")
    }
}
