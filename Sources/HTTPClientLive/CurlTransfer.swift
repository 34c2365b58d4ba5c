import CCurl
import Foundation
import HTTPClient

/// One request as libcurl is given it: everything an easy handle is set up from, decided before the transfer
/// reaches the loop (the proxy by `NetworkEnvironment`, the trust by the source's and the run's CA settings).
struct CurlRequest: Sendable {
    var url: URL
    var method: HTTPRequest.Method
    var headers: HTTPHeaders
    var body: Data?
    var timeoutMilliseconds: Int
    var maxResponseBytes: Int
    var userAgent: String
    var proxy: ProxyEndpoint?
    var trust: CurlTrust
    /// `insecureSkipVerify` for a loopback host: no certificate or host name check.
    var skipsVerification: Bool
}

/// Which CAs a transfer trusts: libcurl's defaults (the system's bundle and directory) unless the run names others
/// (`SSL_CERT_FILE` or `CURL_CA_BUNDLE`, `SSL_CERT_DIR`, which replace them), plus the source's `caFile`.
struct CurlTrust: Sendable, Hashable {
    var file: String?
    var directory: String?
    /// The source's `caFile` contents, trusted beside the rest (libcurl's `CURLOPT_CAINFO_BLOB`).
    var extraPEM: Data?
}

/// What a finished transfer left: a response, or libcurl's result code and what explains it.
enum CurlOutcome: Sendable {
    case response(status: Int, headers: HTTPHeaders, body: Data, redirectURL: String?)
    case failure(CurlFailure)
}

/// A failed transfer in libcurl's numbers, read on the loop thread before its handle was reused.
struct CurlFailure: Sendable, Error {
    var code: CURLcode
    /// `CURLINFO_SSL_VERIFYRESULT`: OpenSSL's verification result (an `X509_V_ERR_*`), 0 when verified.
    var verifyResult: Int = 0
    /// `CURLINFO_OS_ERRNO`: the system's reason for a failed connect.
    var osErrno: Int = 0
    /// `CURLINFO_HTTP_CONNECTCODE`: the proxy's answer to `CONNECT`.
    var proxyStatus: Int = 0
    /// The body went past the cap (the write callback stopped the transfer).
    var tooLarge = false
    /// The server's certificate, when the handshake got as far as one.
    var certificate: CertificateNames?

    init(code: CURLcode) {
        self.code = code
    }
}

/// The subject and issuer of a server's certificate, as OpenSSL prints them (`CN=localhost, O=…`).
struct CertificateNames: Sendable, Hashable {
    var subject: String
    var issuer: String
}

/// A request handed to the loop, and who waits for its outcome.
final class CurlTransfer: Sendable {
    let request: CurlRequest
    private let completion: @Sendable (CurlOutcome) -> Void

    init(_ request: CurlRequest, completion: @escaping @Sendable (CurlOutcome) -> Void) {
        self.request = request
        self.completion = completion
    }

    /// Called once, on the loop thread.
    func complete(_ outcome: CurlOutcome) {
        completion(outcome)
    }
}

/// A transfer in the multi handle: its easy handle's settings and what the response has brought so far. Only the
/// loop thread touches it (libcurl calls the callbacks from the loop's calls into it, on that thread).
final class RunningTransfer {
    let transfer: CurlTransfer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body = Data()
    private var headers = HTTPHeaders()
    private var tooLarge = false
    /// Filled during the TLS handshake (CCurl's verify callback), for the message of a certificate that failed.
    private let certificate = UnsafeMutablePointer<aggregate_curl_certificate_names>.allocate(capacity: 1)

    init(transfer: CurlTransfer) {
        self.transfer = transfer
        certificate.initialize(to: aggregate_curl_certificate_names())
    }

    deinit {
        certificate.deallocate()
    }

    /// Sets up `easy` for the request; libcurl's code for the first option it refused, or nil.
    func configure(_ easy: UnsafeMutableRawPointer) -> CURLcode? {
        let request = transfer.request
        var failure: CURLcode?
        func check(_ code: CURLcode) { if code != CURLE_OK, failure == nil { failure = code } }
        func set(_ option: CURLoption, _ value: Int) { check(aggregate_curl_easy_setopt_long(easy, option, value)) }
        func set(_ option: CURLoption, _ value: String?) { check(aggregate_curl_easy_setopt_string(easy, option, value)) }

        set(CURLOPT_URL, request.url.absoluteString)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        // Redirects are followed by the client, which applies the credential rule first (`CurlHTTPClient`).
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_TIMEOUT_MS, request.timeoutMilliseconds)
        set(CURLOPT_CONNECTTIMEOUT_MS, request.timeoutMilliseconds)
        // Over TLS, wait for a connection being made to the same host to say (by ALPN, at its handshake) whether it
        // multiplexes, rather than open another: HTTP/2 then carries every request on one connection. Not for
        // http://, which libcurl speaks as HTTP/1.1: there it would wait for the first response's headers.
        if request.url.scheme?.lowercased() == "https" { set(CURLOPT_PIPEWAIT, 1) }
        // Every encoding this libcurl decodes (gzip, deflate, br, zstd), unless the request asks for its own.
        var headers = request.headers
        set(CURLOPT_ACCEPT_ENCODING, headers["Accept-Encoding"] ?? "")
        headers.remove("Accept-Encoding")
        if !headers.contains("User-Agent") { set(CURLOPT_USERAGENT, request.userAgent) }
        // libcurl waits up to a second for `100 Continue` before sending a body; no service here needs it.
        headers.add("Expect", "")
        for field in headers {
            headerList = curl_slist_append(headerList, field.value.isEmpty ? "\(field.name):" : "\(field.name): \(field.value)")
        }
        check(aggregate_curl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList)))
        switch request.method {
        case .get: break
        case .head: set(CURLOPT_NOBODY, 1)
        case .post, .put, .patch, .delete:
            if request.method != .post { set(CURLOPT_CUSTOMREQUEST, request.method.rawValue) }
            // A body libcurl copies, so nothing here must outlive the call; POST without one sends an empty one.
            let body = request.body ?? Data()
            if body.isEmpty && request.method != .post { break }
            if body.isEmpty {
                set(CURLOPT_POSTFIELDSIZE, 0)
                set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                check(aggregate_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
                body.withUnsafeBytes { bytes in
                    guard let start = bytes.baseAddress else { return }
                    check(aggregate_curl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: start)))
                }
            }
        }
        configureProxy(request.proxy, easy: easy, set: set)
        configureTrust(request, easy: easy, check: check, set: set)

        check(aggregate_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, { bytes, size, count, context in
            guard let context else { return 0 }
            return Unmanaged<RunningTransfer>.fromOpaque(context).takeUnretainedValue().received(bytes, size * count)
        }))
        check(aggregate_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, { bytes, size, count, context in
            guard let context else { return 0 }
            return Unmanaged<RunningTransfer>.fromOpaque(context).takeUnretainedValue().receivedHeader(bytes, size * count)
        }))
        let context = Unmanaged.passUnretained(self).toOpaque()
        check(aggregate_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context))
        check(aggregate_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context))
        return failure
    }

    /// Sends through `proxy`, or never through one (`""` also stops libcurl from reading the proxy variables
    /// itself: `NetworkEnvironment` alone decides). The credentials go in their own options, never in a URL
    /// libcurl could put in a message.
    private func configureProxy(_ proxy: ProxyEndpoint?, easy: UnsafeMutableRawPointer, set: (CURLoption, String?) -> Void) {
        guard let proxy else { return set(CURLOPT_PROXY, "") }
        set(CURLOPT_PROXY, proxy.description)
        // Plain http:// goes through a CONNECT tunnel too, as https does: the proxy sees where, never what.
        aggregate_curl_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1)
        if let username = proxy.username { set(CURLOPT_PROXYUSERNAME, username) }
        if let password = proxy.password { set(CURLOPT_PROXYPASSWORD, password) }
    }

    private func configureTrust(
        _ request: CurlRequest, easy: UnsafeMutableRawPointer, check: (CURLcode) -> Void, set: (CURLoption, Int) -> Void
    ) {
        if request.skipsVerification {
            set(CURLOPT_SSL_VERIFYPEER, 0)
            set(CURLOPT_SSL_VERIFYHOST, 0)
            return
        }
        if request.url.scheme?.lowercased() == "https" { aggregate_curl_record_certificate(easy, certificate) }
        let trust = request.trust
        // A file or a directory named by the run replaces both of libcurl's defaults, as OpenSSL reads them.
        if trust.file != nil || trust.directory != nil {
            check(aggregate_curl_easy_setopt_string(easy, CURLOPT_CAINFO, trust.file))
            check(aggregate_curl_easy_setopt_string(easy, CURLOPT_CAPATH, trust.directory))
        }
        if let pem = trust.extraPEM {
            pem.withUnsafeBytes { bytes in
                var blob = curl_blob(
                    data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count, flags: UInt32(CURL_BLOB_COPY))
                check(aggregate_curl_easy_setopt_pointer(easy, CURLOPT_CAINFO_BLOB, &blob))
            }
        }
    }

    private func received(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, count > 0 else { return count }
        guard body.count + count <= transfer.request.maxResponseBytes else {
            tooLarge = true
            body = Data()
            // Anything but `count` ends the transfer with CURLE_WRITE_ERROR, before the rest is read.
            return 0
        }
        body.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
        return count
    }

    /// The most a declared `Content-Length` reserves before the body arrives.
    static let reservedBodyBytes = 1 << 20

    private func receivedHeader(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, count > 0 else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after `100 Continue` or a proxy's `CONNECT` answer): only the last one's fields count.
            headers = HTTPHeaders()
            return count
        }
        guard let colon = line.firstIndex(of: ":") else { return count }
        let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
        let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespacesAndNewlines)
        headers.add(name, value)
        // A declared length past the cap is refused before any of the body is read (when it is not compressed:
        // the cap is on the decoded body).
        if name.caseInsensitiveCompare("Content-Length") == .orderedSame, headers["Content-Encoding"] == nil,
           let length = Int(value), length >= 0 {
            guard length <= transfer.request.maxResponseBytes else {
                tooLarge = true
                return 0
            }
            // The body's one allocation, its size: grown by doubling it held up to twice its bytes, and the copies
            // it left behind fragmented the heap (10,000 feeds at 256 in flight: BENCHMARKS.md, "Memory at
            // 10,000 sources"). Up to a MiB: a length is a server's word, and a larger body still grows as it comes.
            body.reserveCapacity(min(length, Self.reservedBodyBytes))
        }
        return count
    }

    /// The transfer's outcome for libcurl's `code`, read from `easy` before it is reset.
    func outcome(_ easy: UnsafeMutableRawPointer, code: CURLcode) -> CurlOutcome {
        if code == CURLE_OK {
            var status = 0
            aggregate_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var redirect: UnsafePointer<CChar>?
            aggregate_curl_easy_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
            return .response(status: status, headers: headers, body: body, redirectURL: redirect.map { String(cString: $0) })
        }
        var failure = CurlFailure(code: code)
        failure.tooLarge = tooLarge
        var number = 0
        aggregate_curl_easy_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &number)
        failure.verifyResult = number
        aggregate_curl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &number)
        failure.osErrno = number
        aggregate_curl_easy_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &number)
        failure.proxyStatus = number
        failure.certificate = recordedCertificate()
        return .failure(failure)
    }

    private func recordedCertificate() -> CertificateNames? {
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let subject = text(certificate.pointee.subject)
        let issuer = text(certificate.pointee.issuer)
        return subject.isEmpty ? nil : CertificateNames(subject: subject, issuer: issuer)
    }

    /// Frees what the easy handle pointed at (its header list) once it is out of the multi handle.
    func release() {
        curl_slist_free_all(headerList)
        headerList = nil
    }
}
