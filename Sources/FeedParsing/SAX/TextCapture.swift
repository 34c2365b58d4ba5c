/// The text of the field being read: its character data, and for HTML fields the markup inside it
/// written back as HTML (the parser has taken it apart into elements and unescaped text).
struct TextCapture {
    private(set) var isActive = false
    private var depth = 0
    private var isHTML = false
    /// Atom `type="xhtml"`: the text is markup, so text nodes are escaped back, and the wrapping `<div>`
    /// is not part of the value.
    private var isXHTML = false
    private var buffer = ""
    /// Most fields arrive in one piece: that string is kept as it is, no copy.
    private var singleText: String?

    /// Starts capturing the field element open at `depth` (the number of open elements).
    mutating func begin(depth: Int, isHTML: Bool, isXHTML: Bool) {
        isActive = true
        self.depth = depth
        self.isHTML = isHTML
        self.isXHTML = isXHTML
        buffer.removeAll(keepingCapacity: true)
        singleText = nil
    }

    /// Whether an element starting now, with `openElements` open, is the `<div>` around XHTML content.
    func isXHTMLWrapper(atDepth openElements: Int) -> Bool { isXHTML && openElements == depth }

    mutating func append(_ string: String, depth openElements: Int) {
        guard isActive else { return }
        if isXHTML || (isHTML && openElements > depth) {
            spillSingleText()
            FeedText.appendEscaped(string, to: &buffer)
        } else if buffer.isEmpty && singleText == nil {
            singleText = string
        } else {
            spillSingleText()
            buffer += string
        }
    }

    mutating func startTag(_ name: String, _ attributes: [String: String]) {
        guard isHTML else { return }
        spillSingleText()
        buffer += "<"
        buffer += name
        for (key, value) in attributes.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("xmlns") && key != "xml:base" {
            buffer += " "
            buffer += key
            buffer += "=\""
            FeedText.appendEscaped(value, to: &buffer, quotes: true)
            buffer += "\""
        }
        buffer += ">"
    }

    mutating func endTag(_ name: String) {
        guard isHTML, !Self.voidElements.contains(name) else { return }
        spillSingleText()
        buffer += "</"
        buffer += name
        buffer += ">"
    }

    /// Ends the capture: the text, as a string of its own (`buffer` is reused, and a value sharing its
    /// storage would keep the whole grown capacity alive as long as the entry lives), and whether it is HTML.
    mutating func finish() -> (text: String, isHTML: Bool) {
        isActive = false
        if let text = singleText {
            singleText = nil
            return (text, isHTML)
        }
        let text = buffer.withUTF8 { String(decoding: $0, as: UTF8.self) }
        buffer.removeAll(keepingCapacity: true)
        return (text, isHTML)
    }

    private mutating func spillSingleText() {
        if let text = singleText {
            buffer += text
            singleText = nil
        }
    }

    private static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "area", "base",
                                                    "col", "embed", "source", "track", "wbr", "param"]
}
