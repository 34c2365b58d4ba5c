import Domain
import Foundation
import Sinks
import Testing

@Suite("webhook sink: body and signature")
struct WebhookSignatureTests {
    static let delivery = SinkDelivery(
        id: "d-1", sink: "hook",
        itemLines: Data((#"{"source":"news","id":"1"}"# + "\n" + #"{"source":"news","id":"2"}"# + "\n").utf8),
        itemCount: 2, createdAt: Date(timeIntervalSince1970: 0))

    @Test("the body is {sink, deliveryId, items} with the stored items as they are")
    func body() throws {
        let body = WebhookTransport.body(sink: "hook", delivery: Self.delivery)
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"sink":"hook","deliveryId":"d-1","items":[{"source":"news","id":"1"},{"source":"news","id":"2"}]}"#)
    }

    @Test("the signature is GitHub's: sha256= and the hex HMAC-SHA256 of the body (RFC 4231 test case 2)")
    func signature() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        #expect(WebhookTransport.signature(of: Data("what do ya want for nothing?".utf8), secret: "Jefe")
            == "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("a secret, or a password in the URL, is refused over plain http to a host that is not loopback")
    func plainHTTP() throws {
        let remote = try #require(URL(string: "http://hooks.example.com/x"))
        #expect(WebhookTransport.transportProblem(url: remote, secret: "s3cret") != nil)
        #expect(WebhookTransport.transportProblem(url: remote, secret: nil) == nil)
        #expect(WebhookTransport.transportProblem(url: try #require(URL(string: "http://u:pw@hooks.example.com/x")), secret: nil) != nil)
        #expect(WebhookTransport.transportProblem(url: try #require(URL(string: "http://127.0.0.1:8080/x")), secret: "s3cret") == nil)
        #expect(WebhookTransport.transportProblem(url: try #require(URL(string: "https://hooks.example.com/x")), secret: "s3cret") == nil)
    }
}
