import Domain
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The `XMLParser` delegate: forwards each SAX event to a `FeedDocumentBuilder` and stops the parser
/// when the builder says so.
final class FeedSAXHandler: NSObject, XMLParserDelegate {
    private(set) var builder: FeedDocumentBuilder

    init(maxEntries: Int, cancellation: CancellationToken?, documentURL: URL?, onEntry: ((FeedEntry) -> Bool)? = nil) {
        builder = FeedDocumentBuilder(maxEntries: maxEntries, cancellation: cancellation, documentURL: documentURL)
        builder.onEntry = onEntry
        super.init()
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String]) {
        if !builder.startElement(elementName, attributes: attributes) { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        if !builder.endElement(elementName) { parser.abortParsing() }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        builder.characters(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard builder.isCapturing else { return }
        builder.characters(String(decoding: CDATABlock, as: UTF8.self))
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        builder.error(code: (parseError as NSError).code, line: parser.lineNumber, column: parser.columnNumber)
    }

    /// Never resolve an entity from outside the document (XXE): whatever is asked, the answer is nothing.
    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }

    /// Atom entries without an author inherit the feed's (RFC 4287 §4.2.1).
    func finish() -> FeedDocumentBuilder {
        builder.inheritFeedAuthor()
        return builder
    }
}
