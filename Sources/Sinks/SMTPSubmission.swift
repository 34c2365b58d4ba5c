import CCurl
import Domain
import Foundation
import Synchronization

/// Hands one message to an SMTP server through the system's libcurl (`smtp://` with STARTTLS whenever the
/// server offers it, or `smtps://`), blocking: run it on a thread of its own, never a pool thread.
struct SMTPSubmission: Sendable {
    /// Where and as whom.
    struct Server: Sendable {
        /// `smtp://host:port` or `smtps://host:port`.
        var url: URL
        var username: String?
        var password: String?
        /// A PEM bundle of CAs to trust instead of the system's.
        var caFile: URL?
        var timeoutSeconds: Double

        /// Credentials sent to a host that is not loopback must travel encrypted: STARTTLS is then required
        /// rather than tried.
        var requiresTLS: Bool {
            guard username != nil || password != nil else { return false }
            let host = url.host ?? ""
            return !(host == "localhost" || host == "127.0.0.1" || host == "::1" || host == "[::1]")
        }
    }

    let server: Server
    let from: String
    let recipients: [String]

    /// Sends `message`; `cancelled` is polled while the transfer runs (a stop abandons it).
    func send(_ message: Data, cancelled: @escaping @Sendable () -> Bool) -> SinkAttemptResult {
        guard let easy = curl_easy_init() else {
            return .retryable(SourceError(.io, "libcurl could not start a transfer"), retryAfter: nil)
        }
        defer { curl_easy_cleanup(easy) }
        var list: UnsafeMutablePointer<curl_slist>?
        for recipient in recipients { list = curl_slist_append(list, "<\(recipient)>") }
        defer { curl_slist_free_all(list) }
        let body = SMTPBody(bytes: [UInt8](message), cancelled: cancelled)
        let context = Unmanaged.passRetained(body)
        defer { context.release() }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_URL, server.url.absoluteString)
            _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_MAIL_FROM, "<\(from)>")
            _ = aggregate_curl_easy_setopt_pointer(easy, CURLOPT_MAIL_RCPT, list)
            if let username = server.username { _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_USERNAME, username) }
            if let password = server.password { _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_PASSWORD, password) }
            if server.url.scheme?.lowercased() == "smtp" {
                let level = server.requiresTLS ? CURLUSESSL_ALL : CURLUSESSL_TRY
                _ = aggregate_curl_easy_setopt_long(easy, CURLOPT_USE_SSL, Int(level.rawValue))
            }
            if let caFile = server.caFile { _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_CAINFO, caFile.path) }
            _ = aggregate_curl_easy_setopt_long(easy, CURLOPT_UPLOAD, 1)
            _ = aggregate_curl_easy_setopt_off_t(easy, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count))
            _ = aggregate_curl_easy_setopt_data_callback(easy, CURLOPT_READFUNCTION, smtpRead)
            _ = aggregate_curl_easy_setopt_pointer(easy, CURLOPT_READDATA, context.toOpaque())
            _ = aggregate_curl_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
            _ = aggregate_curl_easy_setopt_xferinfo_callback(easy, CURLOPT_XFERINFOFUNCTION, smtpProgress)
            _ = aggregate_curl_easy_setopt_pointer(easy, CURLOPT_XFERINFODATA, context.toOpaque())
            _ = aggregate_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(server.timeoutSeconds * 1000))
            _ = aggregate_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            _ = aggregate_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "smtp,smtps")
            _ = aggregate_curl_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            return curl_easy_perform(easy)
        }
        var response = 0
        _ = aggregate_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &response)
        let detail = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return Self.outcome(code, response: response, detail: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail,
                            secrets: [server.password, server.username].compactMap { $0 })
    }

    /// libcurl's answer as an attempt's result. A 5xx reply (a refused recipient or sender) and refused
    /// credentials cannot change by trying again; a 4xx reply, no connection, a timeout or a TLS failure can.
    static func outcome(_ code: CURLcode, response: Int, detail: String, secrets: [String]) -> SinkAttemptResult {
        if code == CURLE_OK { return .delivered }
        var message = "SMTP: \(detail)"
        for secret in secrets where !secret.isEmpty { message = message.replacingOccurrences(of: secret, with: "***") }
        if response > 0 { message += " (server replied \(response))" }
        switch code {
        case CURLE_LOGIN_DENIED:
            return .rejected(SourceError(.unauthorized, message))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .rejected(SourceError(.configuration, message))
        case CURLE_OPERATION_TIMEDOUT:
            return .retryable(SourceError(.timeout, message), retryAfter: nil)
        case _ where (500...599).contains(response):
            return .rejected(SourceError(.badResponse, message))
        default:
            return .retryable(SourceError(.network, message), retryAfter: nil)
        }
    }
}

/// The message libcurl reads, and whether the attempt was stopped. Used only by the transfer's own thread
/// (libcurl calls back on the thread running `curl_easy_perform`), except `cancelled`, a Sendable check.
private final class SMTPBody: Sendable {
    let bytes: [UInt8]
    let offset = Atomic<Int>(0)
    let cancelled: @Sendable () -> Bool

    init(bytes: [UInt8], cancelled: @escaping @Sendable () -> Bool) {
        self.bytes = bytes
        self.cancelled = cancelled
    }
}

/// `CURLOPT_READFUNCTION`: the next part of the message.
private func smtpRead(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let buffer, let context else { return 0 }
    let body = Unmanaged<SMTPBody>.fromOpaque(context).takeUnretainedValue()
    let start = body.offset.load(ordering: .relaxed)
    let length = min(size * count, body.bytes.count - start)
    guard length > 0 else { return 0 }
    body.bytes.withUnsafeBufferPointer { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + start, byteCount: length)
    }
    body.offset.store(start + length, ordering: .relaxed)
    return length
}

/// `CURLOPT_XFERINFOFUNCTION`: non-zero stops the transfer.
private func smtpProgress(
    _ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t, _ uploadTotal: curl_off_t,
    _ uploaded: curl_off_t
) -> Int32 {
    guard let context else { return 0 }
    return Unmanaged<SMTPBody>.fromOpaque(context).takeUnretainedValue().cancelled() ? 1 : 0
}
