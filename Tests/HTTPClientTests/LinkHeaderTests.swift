import Foundation
import HTTPClient
import Testing

@Suite("Link header")
struct LinkHeaderTests {
    static let base = URL(string: "https://api.github.com/repos/apple/swift/issues?per_page=100")!

    @Test("finds rel=\"next\" among several links, with commas inside targets and fields split in two")
    func next() {
        let header = LinkHeader([
            #"<https://api.github.com/repositories/44838949/issues?labels=a,b&page=2>; rel="next""#,
            #"<https://api.github.com/repositories/44838949/issues?labels=a,b&page=9>; rel="last""#,
        ], relativeTo: Self.base)
        #expect(header.next?.absoluteString == "https://api.github.com/repositories/44838949/issues?labels=a,b&page=2")
        #expect(header.targets["last"]?.query == "labels=a,b&page=9")
    }

    @Test("relative targets resolve against the answering URL; rel lists and case are understood")
    func relativeAndLists() {
        let header = LinkHeader([#"</repositories/1/issues?page=3>; REL="Next Last""#], relativeTo: Self.base)
        #expect(header.next?.absoluteString == "https://api.github.com/repositories/1/issues?page=3")
        #expect(header.targets["last"] == header.next)
    }

    @Test("the last page has no next", arguments: [
        [#"<https://api.github.com/repositories/1/issues?page=4>; rel="prev", <https://api.github.com/repositories/1/issues?page=1>; rel="first""#],
        [], ["garbage"],
    ])
    func noNext(fields: [String]) {
        #expect(LinkHeader(fields, relativeTo: Self.base).next == nil)
    }
}
