import Foundation

/// One email as SMTP carries it (RFC 5322, MIME): `multipart/alternative` with a plain-text and an HTML part,
/// each UTF-8 in base64, lines ending in CRLF. A subject that is not ASCII is an RFC 2047 encoded word; line
/// breaks in any header value become spaces, so no text of an item can add a header.
public struct EmailMessage: Sendable, Hashable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var text: String
    public var html: String
    /// Without the angle brackets: `<deliveryId>@aggregate`.
    public var messageID: String
    public var date: Date

    public init(from: String, to: [String], subject: String, text: String, html: String, messageID: String, date: Date) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
    }

    /// The message's bytes, headers and body.
    public var bytes: Data {
        // Base64 and the fixed lines never hold "=_": a boundary with it cannot occur in a part.
        let boundary = "=_aggregate_" + String(messageID.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }.prefix(40).map(Character.init))
        var lines = [
            "Date: \(Self.dateText(date))",
            "From: \(Self.headerValue(from))",
            "To: \(to.map(Self.headerValue).joined(separator: ", "))",
            "Subject: \(Self.encodedWords(Self.headerValue(subject)))",
            "Message-ID: <\(Self.headerValue(messageID))>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "This is a message in MIME format: a plain-text part and an HTML part.",
        ]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += ["", "--\(boundary)", "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", ""]
            lines += Self.base64Lines(Data(body.utf8))
        }
        lines += ["", "--\(boundary)--", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    /// RFC 5322's date, in UTC: `Fri, 27 Nov 2026 17:30:00 +0000`.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }

    /// A header's value on one line: CR and LF (and other controls) become spaces.
    static func headerValue(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }

    /// ASCII as it is; anything else as RFC 2047 `=?UTF-8?B?…?=` words of at most 75 characters, folded.
    static func encodedWords(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy({ $0.isASCII }) else { return text }
        var words: [String] = []
        var chunk = ""
        for character in text {
            // 45 bytes of UTF-8 are 60 base64 characters: the word stays under 75 with its 12 of framing.
            if (chunk + String(character)).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }

    private static func base64Lines(_ data: Data) -> [String] {
        let encoded = data.base64EncodedString()
        var lines: [String] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(String(encoded[index..<end]))
            index = end
        }
        return lines
    }
}
