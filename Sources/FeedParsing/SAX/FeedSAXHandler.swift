import CLibXML2
import Domain
import Foundation

/// What libxml2's SAX2 callbacks reach through the parser context's `_private` pointer (`Unmanaged` of this
/// object): the builder each event goes to, and what the parse reported. One parse, one thread: never shared.
/// (The callbacks' own context pointer stays the parser context, as libxml2's SAX2 defaults for the DTD need;
/// libxml2 copies `_private` to the contexts it makes for a document's entities.)
///
/// The state every event touches is `@exclusivity(unchecked)`: libxml2 calls back one event at a time on the
/// parsing thread, and no access to one of these overlaps another to the same property (the runtime's checks
/// were ~2.5 % of parsing a feed).
final class FeedSAXHandler {
    @exclusivity(unchecked) private(set) var builder: FeedDocumentBuilder
    /// The parser context, for `xmlStopParser` and positions; set by `LibXML2PushParser`, cleared before it is freed.
    var context: xmlParserCtxtPtr?
    /// The builder asked to stop (enough entries, cancelled, not a feed): no more input is fed.
    @exclusivity(unchecked) private(set) var stopped = false
    /// Errors libxml2 recovered from (not warnings, not the end of input), counted for the source's warning.
    private(set) var recoveredErrors = 0
    /// The first of those, with where it was.
    private(set) var firstRecovered: FeedDocumentBuilder.ReportedError?
    /// Where libxml2 stopped reading the input, when it did (`inputFailed`).
    private(set) var inputFailure: FeedDocumentBuilder.ReportedError?
    /// Names or text that were not valid UTF-8 and were read with U+FFFD in their place.
    @exclusivity(unchecked) private(set) var invalidUTF8 = false

    init(maxEntries: Int, cancellation: CancellationToken?, documentURL: URL?, onEntry: ((FeedEntry) -> Bool)? = nil) {
        builder = FeedDocumentBuilder(maxEntries: maxEntries, cancellation: cancellation, documentURL: documentURL)
        builder.onEntry = onEntry
    }

    /// The position libxml2 has reached (1-based line and column; 0 before it started).
    var position: (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        return (Int(xmlSAX2GetLineNumber(context)), Int(xmlSAX2GetColumnNumber(context)))
    }

    /// Atom entries without an author inherit the feed's (RFC 4287 §4.2.1).
    func finish() -> FeedDocumentBuilder {
        builder.inheritFeedAuthor()
        return builder
    }

    // MARK: - Events (from the C callbacks below)

    /// The attributes of the element being started, refilled by the callback for each (one buffer, reused).
    @exclusivity(unchecked) var attributes = XMLAttributes()

    func startElement(_ name: String) {
        guard !stopped else { return }
        if !builder.startElement(name, attributes: attributes) { stop() }
    }

    func endElement(_ name: String) {
        guard !stopped else { return }
        if !builder.endElement(name) { stop() }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Text outside a field (the whitespace between elements, most of it) is never converted.
        guard !stopped, builder.isCapturing else { return }
        // Text inside captured markup goes back out as bytes, escaped; invalid UTF-8 takes the string path,
        // which replaces it and reports it.
        if builder.escapesText, UTF8Repair.isValid(bytes) {
            builder.charactersInMarkup(bytes)
        } else {
            builder.characters(text(bytes))
        }
    }

    func error(_ error: xmlError) {
        // Warnings lose nothing; namespace errors (an undeclared prefix) neither: names are classified by prefix.
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue,
              error.domain != Int32(XML_FROM_NAMESPACE.rawValue)
        else { return }
        let code = Int(error.code)
        // An error inside a document's own entity comes from a context libxml2 made for the entity's text,
        // with positions in that text: the document's position is where the reference is.
        let inDocument = error.ctxt == nil || error.ctxt == UnsafeMutableRawPointer(context)
        let place = inDocument ? (line: Int(error.line), column: Int(error.int2)) : position
        let reported = FeedDocumentBuilder.ReportedError(code: code, line: place.line, column: place.column)
        if !FeedDocumentBuilder.endOfInputCodes.contains(code), code != XMLErrorDescription.entityLoop, !stopped {
            recoveredErrors += 1
            if firstRecovered == nil { firstRecovered = reported }
        }
        builder.error(code: reported.code, line: reported.line, column: reported.column)
    }

    // MARK: - Entity expansion

    /// Bytes the document has given libxml2 so far (`LibXML2PushParser` counts them).
    @exclusivity(unchecked) var fedBytes = 0
    /// Bytes of text, elements and attribute values that came out of the document's own entities.
    @exclusivity(unchecked) private var expandedBytes = 0
    /// Expansion allowed: this much, or `expansionFactor` times the document read so far, whichever is more.
    /// libxml2 2.9 bounds nested expansion ("billion laughs") but not one large entity referenced many times
    /// when a SAX application builds no tree: this bound keeps such a document's time and memory in proportion to
    /// its size. (What one cost without it: BENCHMARKS.md, "Figures behind the code".)
    static let expansionAllowance = 1 << 20
    static let expansionFactor = 10

    /// Counts `count` bytes delivered from inside an entity when `pointer` (the context of the event) is not the
    /// document's own; false, and the parse stops with the entity-expansion error, once past the allowance.
    func allowExpansion(_ count: Int, in pointer: UnsafeMutableRawPointer?) -> Bool {
        guard let context, pointer != UnsafeMutableRawPointer(context) else { return true }
        return allowExpansion(count)
    }

    func allowExpansion(_ count: Int) -> Bool {
        guard !stopped else { return false }
        expandedBytes += count
        guard expandedBytes > Self.expansionAllowance, expandedBytes / Self.expansionFactor > fedBytes else { return true }
        let place = position
        builder.error(code: XMLErrorDescription.entityLoop, line: place.line, column: place.column)
        stop()
        return false
    }

    /// libxml2 stopped reading the input (its encoding converter failed): the parse ends here, where it got to.
    func inputFailed(code: Int) {
        guard inputFailure == nil else { return }
        let place = position
        inputFailure = FeedDocumentBuilder.ReportedError(code: code, line: place.line, column: place.column)
        stopped = true
    }

    private func stop() {
        stopped = true
        if let context { xmlStopParser(context) }
    }

    /// UTF-8 from libxml2, checked: an invalid sequence becomes U+FFFD (and is reported), never a trap.
    /// (`String(validating:as:)` is generic and not specialised across modules: a metadata lookup a call.)
    func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if !UTF8Repair.isValid(bytes) { invalidUTF8 = true }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A NUL-terminated name from libxml2 (its dictionary), measured, then checked as UTF-8.
    func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return text(UnsafeBufferPointer(start: pointer, count: strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))))
    }

    /// `prefix:local`, as the builder classifies names (it tracks namespace declarations itself). libxml2
    /// interns names in the parser's dictionary, which lives as long as the parse: the same name is the same
    /// pointer, so each distinct name is converted once (up to `maxCachedNames`).
    func qualifiedName(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> String {
        // A feed repeats a few dozen names: one slot per pair of pointers, found by their bits, answers nearly
        // every call without hashing a key (a linear scan of the recent ones was ~3 % of parsing XHTML content).
        let key = NameKey(local: local, prefix: prefix)
        let slot = key.slot
        if slotKeys[slot] == key { return slotNames[slot] }
        let value: String
        if let known = names[key] {
            value = known
        } else {
            value = prefix == nil ? name(local) : name(prefix) + ":" + name(local)
            if names.count < Self.maxCachedNames { names[key] = value }
        }
        slotKeys[slot] = key
        slotNames[slot] = value
        return value
    }

    private struct NameKey: Hashable {
        let local: UnsafePointer<xmlChar>?
        let prefix: UnsafePointer<xmlChar>?

        /// Which of the `slotCount` slots the pair goes in: the pointers' bits mixed by one multiplication
        /// (Fibonacci hashing), whose top bits spread names that lie a few bytes apart in libxml2's dictionary.
        var slot: Int {
            let bits = (UInt(bitPattern: local) &+ UInt(bitPattern: prefix) &* 31) &* 0x9E37_79B9_7F4A_7C15
            return Int(bits >> (UInt.bitWidth - FeedSAXHandler.slotBits))
        }
    }

    fileprivate static let slotBits = 8
    fileprivate static let slotCount = 1 << slotBits
    /// The slots start as the pair (nil, nil), whose name is "", as `name(nil)` says.
    @exclusivity(unchecked) private var slotKeys = [NameKey](
        repeating: NameKey(local: nil, prefix: nil), count: slotCount)
    @exclusivity(unchecked) private var slotNames = [String](repeating: "", count: slotCount)

    private static let maxCachedNames = 1024
    @exclusivity(unchecked) private var names: [NameKey: String] = [:]

    /// An attribute value: `value..<end`. libxml2 leaves `&` as `&#38;` and declared entities as references
    /// when it does not substitute entities; those few values are decoded by libxml2 (its limits apply).
    func attributeValue(_ value: UnsafePointer<xmlChar>?, _ end: UnsafePointer<xmlChar>?) -> String {
        guard let value, let end, end >= value else { return "" }
        let bytes = UnsafeBufferPointer(start: value, count: end - value)
        guard bytes.contains(UInt8(ascii: "&")), let context, let length = Int32(exactly: bytes.count),
              let decoded = xmlStringLenDecodeEntities(context, value, length, Int32(XML_SUBSTITUTE_REF), 0, 0, 0)
        else { return text(bytes) }
        defer { aggregate_xml_free(decoded) }
        let count = strlen(UnsafeRawPointer(decoded).assumingMemoryBound(to: CChar.self))
        guard allowExpansion(max(0, count - bytes.count)) else { return "" }
        return text(UnsafeBufferPointer(start: decoded, count: count))
    }
}
