import App
import Domain
import Foundation
import Hummingbird

/// The Google Reader API as reader apps speak it (NetNewsWire, Reeder, Fluent Reader, Read You, FeedMe):
/// `/accounts/ClientLogin` and `/reader/api/0/…`. Subscriptions are the manifest's sources and cannot be edited
/// here; read and starred state is the archive's. Answers JSON whatever `output` asks (every client asks JSON).
struct GoogleReaderRoutes: Sendable {
    static let apiPrefix = "/reader/api/0/"
    static let loginPath = "/accounts/ClientLogin"

    let service: ReaderService
    let logins: LoginThrottle
    var now: @Sendable () -> Date = { Date() }

    static func handles(_ path: String) -> Bool { path == loginPath || path.hasPrefix(apiPrefix) }

    func respond(_ request: Request, from address: String) async -> Response {
        do throws(ReaderProblem) {
            let setup = try service.current()
            guard let account = setup.account else { throw ReaderProblem(.notFound, "reader sync is off") }
            let path = request.uri.path
            if path == Self.loginPath {
                return try login(try await ReaderParameters.read(request), account: account, from: address)
            }
            // Before the body is read: a client without the token gets nothing read for it.
            try authenticate(request, account: account)
            let parameters = try await ReaderParameters.read(request)
            let call = String(path.dropFirst(Self.apiPrefix.count))
            let calls = GoogleReaderCalls(setup: setup, parameters: parameters, base: Self.base(request), now: now)
            switch call {
            case "token": return Self.text(account.actionToken)
            case "user-info": return calls.userInfo(account)
            case "subscription/list": return calls.subscriptions()
            case "tag/list": return calls.tags()
            case "unread-count": return try await calls.unreadCount()
            case "stream/items/ids": return try await calls.itemIDs()
            case "stream/items/contents": return try await calls.contents()
            case "edit-tag": return try await calls.editTag()
            case "mark-all-as-read": return try await calls.markAllAsRead()
            case "subscription/edit", "subscription/quickadd", "rename-tag", "disable-tag":
                throw ReaderProblem(.badRequest, "subscriptions and their folders are the manifest's sources and their tags: edit the manifest")
            default:
                if call == "stream/contents" || call.hasPrefix("stream/contents/") {
                    let stream = call.dropFirst("stream/contents".count).drop { $0 == "/" }
                    return try await calls.streamContents(stream.isEmpty ? nil : (String(stream).removingPercentEncoding ?? String(stream)))
                }
                throw ReaderProblem(.notFound, "no Google Reader call \(ReaderParameters.quoted(call)) here")
            }
        } catch {
            return error.response
        }
    }

    /// `Email` and `Passwd`, in the form or the query; `Auth=` lines, or JSON with `output=json`.
    private func login(_ parameters: ReaderParameters, account: ReaderAccount, from address: String) throws(ReaderProblem) -> Response {
        if let seconds = logins.retryAfter(for: address, at: now()) {
            throw ReaderProblem(.tooManyRequests, "Error=BadAuthentication (too many wrong passwords from this address; try again in \(seconds) s)")
        }
        guard let email = parameters.first("Email"), let password = parameters.first("Passwd") else {
            throw ReaderProblem(.badRequest, "Error=BadAuthentication (ClientLogin needs Email and Passwd)")
        }
        guard account.accepts(username: email, password: password) else {
            logins.failed(address, at: now())
            throw ReaderProblem(.unauthorized, "Error=BadAuthentication")
        }
        logins.succeeded(address)
        let token = account.authToken
        if parameters.first("output") == "json" {
            var writer = JSONWriter()
            writer.beginObject()
            for key in ["SID", "LSID", "Auth"] {
                writer.key(key)
                writer.string(token)
            }
            writer.endObject()
            return Self.json(writer)
        }
        return Self.text("SID=\(token)\nLSID=\(token)\nAuth=\(token)\n")
    }

    /// `Authorization: GoogleLogin auth=<token>` (the scheme's case and spaces as clients vary them).
    private func authenticate(_ request: Request, account: ReaderAccount) throws(ReaderProblem) {
        let header = request.headers[.authorization] ?? ""
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "googlelogin" else {
            throw ReaderProblem(.unauthorized, "Unauthorized: log in at \(Self.loginPath) and send Authorization: GoogleLogin auth=<Auth>")
        }
        let credential = parts[1].trimmingCharacters(in: .whitespaces)
        guard credential.lowercased().hasPrefix("auth="), account.accepts(authToken: String(credential.dropFirst(5))) else {
            throw ReaderProblem(.unauthorized, "Unauthorized: the auth token is not this server's (log in again)")
        }
    }

    /// `http://<Host>`, for links to this server's pages.
    static func base(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "localhost")
    }

    static func text(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ writer: JSONWriter) -> Response {
        var writer = writer
        writer.byte(UInt8(ascii: "\n"))
        return Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }
}
