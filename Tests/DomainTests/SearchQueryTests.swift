import Domain
import Testing

@Suite("The archive's search syntax")
struct SearchQueryTests {
    @Test("words, phrases, prefixes, OR and left-out terms parse into groups", arguments: [
        ("swift server", "swift server"),
        ("\"server side\" swift", "\"server side\" swift"),
        ("wasm*", "wasm*"),
        ("swift OR rust feed", "swift OR rust feed"),
        ("swift -ios -\"apple watch\"", "swift -ios -\"apple watch\""),
        ("  Swift   SERVER ", "swift server"),
        ("e-mail", "\"e mail\""),
        ("\"one\"", "one"),
        ("or", "or"),
    ])
    func parses(text: String, normalised: String) throws {
        #expect(try SearchQuery(text).description == normalised)
    }

    @Test("OR joins its two neighbours into one group; the rest stay required")
    func groups() throws {
        let query = try SearchQuery("feed swift OR rust -ios")
        #expect(query.required == [[.word("feed", prefix: false)], [.word("swift", prefix: false), .word("rust", prefix: false)]])
        #expect(query.excluded == [.word("ios", prefix: false)])
    }

    @Test("mistakes are named, never passed to a search engine", arguments: [
        ("", "no word"),
        ("   ", "no word"),
        ("\"open phrase", "closing"),
        ("OR swift", "OR needs"),
        ("swift OR", "OR needs"),
        ("-ios", "only leaves words out"),
        ("- ios", "'-' must stand"),
        ("sw*ft", "'*' may only end"),
        ("*", "'*' must follow"),
        ("\"\"", "empty phrase"),
        ("a\"b", "must start or end a phrase"),
        ("!!!", "no letter or digit"),
    ])
    func refuses(text: String, reason: String) {
        #expect {
            _ = try SearchQuery(text)
        } throws: { error in
            (error as? SearchQuery.SyntaxError)?.message.contains(reason) == true
        }
    }

    @Test("a query is bounded in length and in terms")
    func bounds() {
        #expect(throws: SearchQuery.SyntaxError.self) { try SearchQuery(String(repeating: "a", count: SearchQuery.maxLength + 1)) }
        #expect(throws: SearchQuery.SyntaxError.self) {
            try SearchQuery((0...SearchQuery.maxTerms).map { "w\($0)" }.joined(separator: " "))
        }
        #expect((try? SearchQuery((1...SearchQuery.maxTerms).map { "w\($0)" }.joined(separator: " "))) != nil)
    }

    @Test("a cursor round-trips exactly and anything else is refused")
    func cursor() {
        let cursor = ArchiveCursor(key: -3.141592653589793, archiveID: 42)
        #expect(ArchiveCursor(cursor.text) == cursor)
        for text in ["", "a1", "a1.zz.1", "a2.0.1", "a1.7ff8000000000000.1", "a1.0.x"] {
            #expect(ArchiveCursor(text) == nil, "\(text)")
        }
    }
}
