import Domain
import Foundation
import ProviderTesting
import Sinks
import Templating
import Testing

/// The email sink against a real SMTP server on loopback (aiosmtpd): STARTTLS, smtps, AUTH, and the message.
@Suite("email sink: SMTP through libcurl")
struct EmailTransportTests {
    static let delivery = NotificationTransportTests.twoItems

    private func transport(
        _ server: SMTPTestServer, scheme: String = "smtp", username: String? = "digest", password: String? = "pa55word",
        caFile: URL?
    ) throws -> EmailTransport {
        EmailTransport(
            sink: "mail", url: try #require(URL(string: "\(scheme)://localhost:\(server.port)")), from: "aggregate@example.org",
            to: ["me@example.org", "you@example.org"], username: username, password: password, caFile: caFile,
            subject: try Template(EmailTransport.defaultSubject), timeoutSeconds: 20,
            now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    private func send(_ transport: EmailTransport) async -> SinkAttemptResult {
        await withCheckedContinuation { continuation in
            transport.send(Self.delivery, cancellation: CancellationToken()) { continuation.resume(returning: $0) }
        }
    }

    @Test("STARTTLS then AUTH: one message with both recipients, a subject, a text and an HTML part with every item")
    func startTLS() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await SMTPTestServer.start(mode: .startTLS, login: "digest", password: "pa55word")
        let result = await send(try transport(server, caFile: certificates.caFile))
        if result == .delivered { _ = await server.waitForMessages(1) }
        let messages = server.messages()
        await server.stop()

        #expect(result == .delivered)
        let message = try #require(messages.first)
        #expect(messages.count == 1)
        #expect(message.encrypted, "STARTTLS was used: the server offered it")
        #expect(message.login == "digest", "AUTH with the sink's username and password")
        #expect(message.from == "aggregate@example.org")
        #expect(message.recipients == ["me@example.org", "you@example.org"])
        let text = message.text
        #expect(text.contains("Subject: 2 new items from mail\r\n"))
        #expect(text.contains("Message-ID: <d-2@aggregate>"))
        #expect(text.contains("Content-Type: multipart/alternative;"))
        let parts = Self.decodedParts(text)
        #expect(parts["text/plain"]?.contains("Ünïcode title\nnews") == true, "\(parts)")
        #expect(parts["text/plain"]?.contains("Second\nhttps://example.org/8\nissues") == true)
        #expect(parts["text/html"]?.contains(#"<a href="https://example.org/8">Second</a>"#) == true)
    }

    @Test("smtps: TLS from the first byte")
    func implicitTLS() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await SMTPTestServer.start(mode: .implicitTLS, login: "digest", password: "pa55word")
        let result = await send(try transport(server, scheme: "smtps", caFile: certificates.caFile))
        if result == .delivered { _ = await server.waitForMessages(1) }
        let messages = server.messages()
        await server.stop()

        #expect(result == .delivered)
        #expect(messages.first?.encrypted == true && messages.first?.login == "digest")
    }

    @Test("a wrong password is refused for good, and the message never shows it")
    func wrongPassword() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await SMTPTestServer.start(mode: .startTLS, login: "digest", password: "pa55word")
        let result = await send(try transport(server, password: "wr0ngpass", caFile: certificates.caFile))
        await server.stop()

        guard case .rejected(let error) = result else { Issue.record("\(result)"); return }
        #expect(error.kind == .unauthorized)
        #expect(!error.message.contains("wr0ngpass"))
        #expect(server.messages().isEmpty)
    }

    @Test("a 451 is worth another try; a server that is down too")
    func temporaryFailures() async throws {
        let certificates = try await TestCertificates.shared()
        let server = try await SMTPTestServer.start(mode: .startTLS, failures: 1)
        let transport = try transport(server, username: nil, password: nil, caFile: certificates.caFile)
        let first = await send(transport)
        let second = await send(transport)
        await server.stop()
        let down = await send(transport)

        if case .retryable = first {} else { Issue.record("451: \(first)") }
        #expect(second == .delivered)
        if case .retryable = down {} else { Issue.record("refused connection: \(down)") }
    }

    @Test("the subject is one header line, encoded when it is not ASCII; item text cannot add a header")
    func headers() throws {
        let message = EmailMessage(
            from: "a@example.org", to: ["b@example.org"], subject: "Nouveautés\r\nBcc: evil@example.org", text: "t", html: "h",
            messageID: "d-9@aggregate", date: Date(timeIntervalSince1970: 0))
        let text = String(decoding: message.bytes, as: UTF8.self)
        #expect(!text.contains("\r\nBcc:"))
        #expect(text.contains("Subject: =?UTF-8?B?"))
        #expect(text.contains("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n"))
    }

    /// Each part's decoded text by content type.
    static func decodedParts(_ message: String) -> [String: String] {
        var parts: [String: String] = [:]
        for chunk in message.components(separatedBy: "\r\n--") {
            guard let type = ["text/plain", "text/html"].first(where: { chunk.contains("Content-Type: \($0);") }),
                  let blank = chunk.range(of: "\r\n\r\n") else { continue }
            let encoded = chunk[blank.upperBound...].replacingOccurrences(of: "\r\n", with: "")
            parts[type] = Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) }
        }
        return parts
    }
}
