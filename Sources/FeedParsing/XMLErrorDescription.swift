/// Short human text for the libxml2 error codes feeds run into (`xmlParserErrors` in libxml/xmlerror.h).
enum XMLErrorDescription {
    static let entityLoop = 89
    static let invalidEncoding = 81

    static func text(forCode code: Int) -> String {
        switch code {
        case 1: "internal XML parser error"
        case 2: "out of memory"
        case 3: "not XML (no start tag)"
        case 4: "the document is empty"
        case 5: "the document ends too early (truncated?)"
        case 6, 7, 8: "invalid character reference"
        case 9: "invalid character"
        case 26, 27: "undeclared entity"
        case 31, 32: "unsupported character encoding"
        case 38: "'<' inside an attribute value"
        case 39, 40, 41: "malformed attribute"
        case 42: "attribute given twice"
        case 45: "comment not closed"
        case 63: "CDATA section not closed"
        case 68: "element name expected"
        case 73: "'>' expected"
        case 76: "opening and ending tag mismatch"
        case 77: "tag not finished"
        case invalidEncoding: "invalid bytes for the document's encoding"
        case 85: "not well-balanced"
        case 86: "extra content after the document element"
        case entityLoop: "entity expansion limit exceeded (a \"billion laughs\" document?)"
        case 111: "parsing stopped"
        default: "XML error \(code)"
        }
    }
}
