import FeedParsing
import Foundation

/// The fuzzed function: any bytes as an HTTP feed body, with and without a declared charset. A thrown
/// `SourceError` is the expected outcome for junk; a crash, a hang or a sanitizer report is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func feedParserFuzzer(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let data = Data(bytes: start, count: count)
    _ = try? FeedParser.parse(data, baseURL: URL(string: "https://example.com/feed/"))
    _ = try? FeedParser.parse(data, charset: "iso-8859-1", maxEntries: 3)
    return 0
}
