import CLibXML2

/// One libxml2 SAX2 push parser: fed chunk by chunk (no size limit on the document, memory bounded by a
/// chunk), events to a `FeedSAXHandler`.
///
/// Options: recovery (every recovered error is counted by the handler and reported on the source), no network,
/// no DTD loading, no entity substitution by libxml2 (the document's own entities are delivered as events,
/// bounded by libxml2's amplification check and by the handler's own expansion bound; external ones are never
/// resolved), and no `XML_PARSE_HUGE`, so libxml2's hard limits stay. Errors go to the handler through this
/// context's own structured error callback; the only other setting is the parsing thread's generic error
/// handler (libxml2 keeps it per thread), silenced for the parse and restored. Parsers on several threads do
/// not meet.
final class LibXML2PushParser {
    private static let options = Int32(XML_PARSE_RECOVER.rawValue | XML_PARSE_NONET.rawValue)
    /// Largest piece handed to `xmlParseChunk` at once (its size is an `Int32`).
    private static let maxPiece = 1 << 20
    /// `xmlInitParser` once, before any parser exists (libxml2 asks for it in threaded programs); the HTML, OPML
    /// and XPath readers touch it too.
    static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    private let handler: FeedSAXHandler
    private let context: xmlParserCtxtPtr?
    /// This thread's generic error handler before the parse (restored when it ends: the parse is synchronous,
    /// made and freed on one thread).
    private let savedGenericErrors: aggregate_xml_generic_errors

    init(handler: FeedSAXHandler) {
        _ = Self.initialized
        savedGenericErrors = aggregate_xml_silence_generic_errors()
        self.handler = handler
        var sax = FeedSAXHandler.callbacks()
        context = xmlCreatePushParserCtxt(&sax, nil, nil, 0, nil)
        if let context {
            context.pointee._private = Unmanaged.passUnretained(handler).toOpaque()
            xmlCtxtUseOptions(context, Self.options)
            handler.context = context
        }
    }

    deinit {
        defer { aggregate_xml_restore_generic_errors(savedGenericErrors) }
        handler.context = nil
        guard let context else { return }
        // The SAX2 defaults keep the document's DTD (its entities) in a document of their own.
        if let document = context.pointee.myDoc {
            context.pointee.myDoc = nil
            xmlFreeDoc(document)
        }
        xmlFreeParserCtxt(context)
    }

    /// False when libxml2 could not make a parser (out of memory).
    var isReady: Bool { context != nil }

    /// Parses `bytes`; `last` ends the document (libxml2 then reports what was left open).
    func feed(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool) {
        guard let context else { return }
        var offset = 0
        repeat {
            let count = min(Self.maxPiece, bytes.count - offset)
            let piece = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[offset..<(offset + count)])
            offset += count
            let terminate: Int32 = last && offset == bytes.count ? 1 : 0
            handler.fedBytes += count
            _ = xmlParseChunk(context, piece.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(count), terminate)
            // A converter failure (bytes the declared encoding cannot have) halts libxml2 without telling the
            // context's error handler: its input buffer keeps the error.
            if let buffer = context.pointee.input?.pointee.buf, buffer.pointee.error != 0 {
                handler.inputFailed(code: XMLErrorDescription.invalidEncoding)
                return
            }
            if handler.stopped { return }
        } while offset < bytes.count
    }
}
