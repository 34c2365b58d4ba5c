import CLibXML2

/// The SAX2 callbacks libxml2 calls, as C function pointers: each finds its `FeedSAXHandler` through the parser
/// context's `_private` and hands over pointers with explicit lengths (names measured, text and values sliced).
private func handler(_ pointer: UnsafeMutableRawPointer?) -> FeedSAXHandler? {
    guard let pointer, let handler = pointer.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return nil }
    return Unmanaged<FeedSAXHandler>.fromOpaque(handler).takeUnretainedValue()
}

extension FeedSAXHandler {
    /// libxml2's SAX2 defaults (the DTD bookkeeping that makes a document's own entities work), with our element,
    /// text and error callbacks, and nothing that would read outside the document or build a tree.
    static func callbacks() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        sax.startElement = nil
        sax.endElement = nil
        sax.reference = nil
        sax.processingInstruction = nil
        sax.comment = nil
        sax.setDocumentLocator = nil
        sax.externalSubset = nil  // never load an external DTD
        sax.resolveEntity = { _, _, _ in nil }  // never resolve an external entity
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
        sax.startElementNs = { pointer, local, prefix, _, namespaceCount, namespaces, attributeCount, _, attributes in
            guard let handler = handler(pointer), handler.allowExpansion(16, in: pointer) else { return }
            handler.attributes.removeAll()
            if let namespaces, namespaceCount > 0 {
                for index in 0..<Int(namespaceCount) {
                    let prefix = namespaces[2 * index]
                    handler.attributes.add(prefix.map { "xmlns:" + handler.name($0) } ?? "xmlns") {
                        handler.name(namespaces[2 * index + 1])
                    }
                }
            }
            if let attributes, attributeCount > 0 {
                for index in 0..<Int(attributeCount) {
                    let fields = attributes + 5 * index  // localname, prefix, URI, value, end
                    handler.attributes.add(handler.qualifiedName(fields[0], fields[1])) {
                        handler.attributeValue(fields[3], fields[4])
                    }
                }
            }
            handler.startElement(handler.qualifiedName(local, prefix))
        }
        sax.endElementNs = { pointer, local, prefix, _ in
            guard let handler = handler(pointer) else { return }
            handler.endElement(handler.qualifiedName(local, prefix))
        }
        sax.characters = { pointer, bytes, length in
            guard let handler = handler(pointer), let bytes, length > 0,
                  handler.allowExpansion(Int(length), in: pointer) else { return }
            handler.characters(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        sax.ignorableWhitespace = sax.characters
        sax.cdataBlock = { pointer, bytes, length in
            guard let handler = handler(pointer), let bytes, length > 0,
                  handler.allowExpansion(Int(length), in: pointer) else { return }
            handler.characters(UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
        sax.serror = { pointer, error in
            guard let handler = handler(pointer), let error else { return }
            handler.error(error.pointee)
        }
        return sax
    }
}
