import Domain
import Foundation
import Hummingbird

/// A reader app's parameters: the query's and, on a POST, the form body's, in order, repeats kept (`i=1&i=2`).
/// Clients put the same parameter in either place (`output=json` in ClientLogin's body, `ot` in the query), so
/// both are read as one list.
struct ReaderParameters: Sendable {
    private(set) var pairs: [(name: String, value: String)]

    /// Forms larger than this are refused (an edit-tag of 10,000 long ids is about 500 KB).
    static let maxBodyBytes = 2 << 20

    init(_ pairs: [(name: String, value: String)]) {
        self.pairs = pairs
    }

    /// - Throws: a 413 for a body over `maxBodyBytes`.
    static func read(_ request: Request) async throws(ReaderProblem) -> ReaderParameters {
        var pairs = decode(request.uri.query ?? "")
        if request.method == .post {
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: maxBodyBytes)
            } catch {
                throw ReaderProblem(.contentTooLarge, "the form is larger than \(maxBodyBytes) bytes")
            }
            pairs += decode(String(buffer: body))
        }
        return ReaderParameters(pairs)
    }

    /// `a=1&b=2` with `+` as a space and percent escapes decoded; empty pairs (`&&`) skipped.
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = String(text).replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            let name = decode(parts[0]).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    func first(_ name: String) -> String? { pairs.first { $0.name == name }?.value }
    func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }
    func has(_ name: String) -> Bool { pairs.contains { $0.name == name } }

    /// A whole number, or nil when absent; a 400 naming the parameter when it is no number.
    func int(_ name: String) throws(ReaderProblem) -> Int64? {
        guard let text = first(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let number = Int64(text) else { throw ReaderProblem(.badRequest, "\(name) must be a whole number, not \(Self.quoted(text))") }
        return number
    }

    /// A time as clients send it: seconds (`1732800000`, NetNewsWire's `1732800000.25`), milliseconds or
    /// microseconds (Google's `ts`), told apart by size.
    func time(_ name: String) throws(ReaderProblem) -> Date? {
        guard let text = first(name)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let number = Double(text), number.isFinite, number >= 0 else {
            throw ReaderProblem(.badRequest, "\(name) must be a time in seconds since 1970, not \(Self.quoted(text))")
        }
        let seconds = number >= 1e14 ? number / 1e6 : number >= 1e11 ? number / 1e3 : number
        return Date(timeIntervalSince1970: seconds)
    }

    /// A client's value in a message: short, on one line.
    static func quoted(_ text: String) -> String {
        let line = text.prefix(80).map { $0.isNewline ? " " : String($0) }.joined()
        return "'\(line)\(text.count > 80 ? "…" : "")'"
    }
}

/// Why a reader request is refused: a status and a message for the person reading the client's log.
struct ReaderProblem: Error, Sendable {
    var status: HTTPResponse.Status
    var message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    /// Reader APIs answer errors as text (Google Reader's convention; Fever clients only read the status).
    var response: Response {
        var headers: HTTPFields = [.contentType: "text/plain; charset=utf-8"]
        if status == .unauthorized { headers[.wwwAuthenticate] = "GoogleLogin realm=\"aggregate\"" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}

/// Item ids as the Google Reader API writes them: decimal (`itemRefs`), 16 hex digits (the long form's tail, as
/// Fluent Reader and NetNewsWire send it back) or the long form `tag:google.com,2005:reader/item/<16 hex>`.
enum ReaderItemID {
    static let longPrefix = "tag:google.com,2005:reader/item/"

    static func long(_ id: Int64) -> String {
        let hex = String(UInt64(bitPattern: id), radix: 16)
        return longPrefix + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// - Throws: a 400 naming the id that is none of the three forms.
    static func parse(_ text: String) throws(ReaderProblem) -> Int64 {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var hex: Substring?
        if trimmed.hasPrefix(longPrefix) {
            hex = trimmed.dropFirst(longPrefix.count)
        } else if trimmed.count == 16 || (trimmed.contains { "abcdefABCDEF".contains($0) } && trimmed.count < 16) {
            // Sixteen digits are the long form's tail; a shorter id with a hex letter cannot be decimal.
            hex = Substring(trimmed)
        }
        if let hex {
            if hex.count <= 16, !hex.isEmpty, let bits = UInt64(hex, radix: 16) { return Int64(bitPattern: bits) }
        } else if let number = Int64(trimmed) {
            return number
        }
        throw ReaderProblem(.badRequest, "item id \(ReaderParameters.quoted(text)) is not an item id (decimal, 16 hex digits or \(longPrefix)…)")
    }
}
