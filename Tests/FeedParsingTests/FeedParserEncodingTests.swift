import Domain
import Foundation
import Testing
@testable import FeedParsing

@Suite("Character encodings")
struct FeedParserEncodingTests {
    /// Jornal de Notícias, declared ISO-8859-1, Latin-1 bytes.
    static let latin1Feed = "rss2_iso-8859-1_jn_pt.rss"
    static let latin1Title = "Jornal de Notícias - Últimas Notícias"
    static let latin1FirstEntry = "Mãe de utente é a nova presidente da Raríssimas"

    /// "Новости" in windows-1251.
    static let cyrillic1251: [UInt8] = [205, 238, 226, 238, 241, 242, 232]

    static func rss(title: [UInt8], declaration: String?) -> Data {
        var bytes = Array((declaration.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? "").utf8)
        bytes += Array("<rss version=\"2.0\"><channel><title>".utf8) + title
        bytes += Array("</title><item><title>".utf8) + title + Array("</title></item></channel></rss>".utf8)
        return Data(bytes)
    }

    @Test("declared ISO-8859-1 is converted, accents intact")
    func declaredLatin1() throws {
        let parsed = try FeedParser.parseDetailed(contentsOf: Fixture.url(Self.latin1Feed))
        #expect(parsed.encoding == .singleByte(.windows1252))
        #expect(parsed.feed.title == Self.latin1Title)
        #expect(parsed.feed.entries.count == 40)
        #expect(parsed.feed.entries.first?.title == Self.latin1FirstEntry)
    }

    @Test("the same Latin-1 bytes with the declaration removed lose no entry and no accent")
    func latin1WithoutDeclaration() throws {
        let original = try Fixture.data(Self.latin1Feed)
        let text = String(decoding: original.prefix(200), as: UTF8.self)
        let declarationEnd = try #require(text.range(of: "?>")).upperBound
        let stripped = original.dropFirst(text[..<declarationEnd].utf8.count)
        let parsed = try FeedParser.parseDetailed(Data(stripped))
        #expect(parsed.encoding == .utf8)  // read as UTF-8, stray bytes repaired as windows-1252
        #expect(parsed.feed.title == Self.latin1Title)
        #expect(parsed.feed.entries.count == 40)
        #expect(parsed.feed.entries.first?.title == Self.latin1FirstEntry)
    }

    @Test("Latin-1 bytes under a wrong UTF-8 declaration are repaired")
    func wrongUTF8Declaration() throws {
        let latin1 = Array("Notícias".data(using: .isoLatin1)!)
        let feed = try FeedParser.parse(Self.rss(title: latin1, declaration: "UTF-8"))
        #expect(feed.title == "Notícias")
        #expect(feed.entries.first?.title == "Notícias")
    }

    @Test("windows-1251 as declared", arguments: ["windows-1251", "cp1251", "WINDOWS-1251"])
    func declared1251(label: String) throws {
        let feed = try FeedParser.parse(Self.rss(title: Self.cyrillic1251, declaration: label))
        #expect(feed.title == "Новости")
        #expect(feed.entries.first?.title == "Новости")
    }

    @Test("windows-1251 named only by the HTTP charset")
    func httpCharsetOnly() throws {
        let feed = try FeedParser.parse(Self.rss(title: Self.cyrillic1251, declaration: nil), charset: "windows-1251")
        #expect(feed.title == "Новости")
    }

    @Test("the HTTP charset wins over a declaration the bytes contradict")
    func httpCharsetOverridesWrongDeclaration() throws {
        let feed = try FeedParser.parse(Self.rss(title: Self.cyrillic1251, declaration: "utf-8"), charset: "windows-1251")
        #expect(feed.title == "Новости")
    }

    @Test("a declaration backed by valid UTF-8 wins over a wrong HTTP charset")
    func validUTF8OverridesWrongHTTPCharset() throws {
        let feed = try FeedParser.parse(Self.rss(title: Array("Notícias".utf8), declaration: "utf-8"), charset: "iso-8859-1")
        #expect(feed.title == "Notícias")
    }

    @Test("windows-1252 punctuation under an ISO-8859-1 label reads as meant")
    func latin1LabelIsWindows1252() throws {
        let feed = try FeedParser.parse(Self.rss(title: [0x93, 0x51, 0x94, 0x20, 0x96, 0x20, 0x80], declaration: "ISO-8859-1"))
        #expect(feed.title == "“Q” – €")
    }

    @Test("an encoding we do not convert ourselves is decoded by libxml2 (KOI8-R)")
    func koi8r() throws {
        let feed = try FeedParser.parse(Self.rss(title: [240, 210, 201, 215, 197, 212], declaration: "KOI8-R"))
        #expect(feed.title == "Привет")
    }

    @Test("UTF-16 with a byte-order mark")
    func utf16() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><title>Grüße</title></channel></rss>"
        let data = try #require(text.data(using: .utf16LittleEndian))
        let feed = try FeedParser.parse(Data([0xFF, 0xFE]) + data)
        #expect(feed.title == "Grüße")
    }

    @Test("a UTF-8 sequence split across read chunks survives")
    func splitSequence() throws {
        // 64 KiB chunks: put a multi-byte character across the first boundary.
        let padding = String(repeating: "a", count: 65_536 - 40)
        let text = "<rss><channel><title>\(padding)</title><item><title>ÄÖÜ€</title></item></channel></rss>"
        let url = try Fixture.write(Data(text.utf8))
        let feed = try FeedParser.parse(contentsOf: url)
        #expect(feed.entries.first?.title == "ÄÖÜ€")
    }
}

@Suite("Bytes an encoding libxml2 decodes cannot convert")
struct FeedParserConversionErrorTests {
    @Test("invalid bytes for a libxml2-decoded encoding: the entries before them are kept, and the source is told")
    func invalidBytesForEncoding() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="EUC-JP"?><rss><channel><item><title>x</title></item><item><title>a"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("b</title></item></channel></rss>".utf8)
        let feed = try FeedParser.parse(Data(bytes))
        #expect(feed.entries.map(\.title) == ["x"])
        #expect(feed.warnings.contains { $0.contains("invalid bytes for the document's encoding") && $0.contains("line 1, column") },
                "\(feed.warnings)")
    }
}
