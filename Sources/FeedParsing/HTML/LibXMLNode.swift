import CLibXML2
import CLibXML2OnDemand
import Foundation

/// Text and markup of libxml2 tree nodes and XPath results.
enum LibXMLNode {
    /// The string value of a node (an element's text, an attribute's value), as XPath's `string()` gives it.
    static func text(_ node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { aggregate_xml_free(content) }
        return String(cString: content)
    }

    /// The markup inside an element, serialized by libxml2's HTML writer.
    static func innerHTML(_ node: xmlNodePtr, in document: xmlDocPtr) -> String {
        guard let buffer = xmlBufferCreate() else { return text(node) }
        defer { xmlBufferFree(buffer) }
        var child = node.pointee.children
        while let current = child {
            _ = htmlNodeDump(buffer, document, current)
            child = current.pointee.next
        }
        guard let content = xmlBufferContent(buffer) else { return "" }
        return String(cString: content)
    }

    /// An XPath result as text: the first node's string value (or, with `markup`, an element's inner HTML), a
    /// string, a number (integers without a fraction) or a boolean. Nil for an empty node set.
    static func value(of result: xmlXPathObjectPtr?, markupIn document: xmlDocPtr? = nil) -> String? {
        guard let result else { return nil }
        switch result.pointee.type {
        case XPATH_NODESET:
            guard let set = result.pointee.nodesetval, set.pointee.nodeNr > 0, let node = set.pointee.nodeTab[0] else {
                return nil
            }
            if let document, node.pointee.type == XML_ELEMENT_NODE { return innerHTML(node, in: document) }
            return text(node)
        case XPATH_STRING:
            return result.pointee.stringval.map { String(cString: $0) }
        case XPATH_NUMBER:
            let number = result.pointee.floatval
            guard number.isFinite else { return nil }
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case XPATH_BOOLEAN:
            return result.pointee.boolval != 0 ? "true" : "false"
        default:
            return nil
        }
    }

    /// The nodes of a node-set result, in document order; none for any other result.
    static func nodes(of result: xmlXPathObjectPtr?) -> [xmlNodePtr] {
        guard let result, result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval else { return [] }
        return (0..<Int(set.pointee.nodeNr)).compactMap { set.pointee.nodeTab[$0] }
    }

    /// Runs of white space (line breaks and indentation of the markup) as one space, and none at the ends.
    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" })
            .joined(separator: " ")
    }
}
