@testable import App
import Domain
import Foundation
import Testing

@Suite("What the archive keeps of an item's URLs: credentials redacted, anything else as it was")
struct ArchiveRedactionTests {
    private func kept(_ text: String) -> String? {
        let item = Item(kind: .record, id: "i", title: "t", fields: ["link": .string(text), "nested": .array([.string(text)])])
        let fields = ArchiveRedaction.redacted(item).fields
        guard case .string(let link)? = fields["link"], case .array(let nested)? = fields["nested"],
              case .string(let inner)? = nested.first else { return nil }
        #expect(link == inner, "a nested string is redacted as a top-level one")
        return link
    }

    @Test("a password or a secret query value in an http(s) URL, in any case of the scheme, is redacted")
    func credentials() {
        #expect(kept("https://user:hunter2@mirror.example.org/x") == "https://user:***@mirror.example.org/x")
        #expect(kept("HTTPS://user:hunter2@mirror.example.org/x")?.contains("hunter2") == false)
        #expect(kept("Http://ci.example.org/b?token=s3cr3t&page=2")?.contains("s3cr3t") == false)
    }

    @Test("other texts are kept byte for byte: no credential, another scheme, too short to be a URL")
    func untouched() {
        for text in ["https://example.org/path", "https://example.org/?q=swift", "ftp://user:pw@example.org/x",
                     "httpx://user:pw@example.org", "http://", "hello @ world ? yes", "h"] {
            #expect(kept(text) == text, "\(text)")
        }
    }
}
