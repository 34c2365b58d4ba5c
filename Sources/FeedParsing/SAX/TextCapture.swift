/// The text of the field being read: its character data, and for HTML fields the markup inside it
/// written back as HTML (the parser has taken it apart into elements and unescaped text).
struct TextCapture {
    private(set) var isActive = false
    private var depth = 0
    private var isHTML = false
    /// Atom `type="xhtml"`: the text is markup, so text nodes are escaped back, and the wrapping `<div>`
    /// is not part of the value.
    private var isXHTML = false
    /// The text as UTF-8: the markup is written back a few bytes at a time, which a `String` makes costly
    /// (its append machinery was ~6 % of parsing feeds with XHTML content).
    private var buffer: [UInt8] = []
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
            append(string)
        }
    }

    mutating func startTag(_ name: String, _ attributes: XMLAttributes) {
        guard isHTML else { return }
        spillSingleText()
        appendLiteral("<")
        append(name)
        // By name, as they always came out (they were a dictionary's); most tags have one or none.
        let pairs = attributes.pairs.count > 1 ? attributes.pairs.sorted { $0.name < $1.name } : attributes.pairs
        for (key, value) in pairs where !key.hasPrefix("xmlns") && key != "xml:base" {
            appendLiteral(" ")
            append(key)
            appendLiteral("=\"")
            FeedText.appendEscaped(value, to: &buffer, quotes: true)
            appendLiteral("\"")
        }
        appendLiteral(">")
    }

    mutating func endTag(_ name: String) {
        guard isHTML, !Self.voidElements.contains(name) else { return }
        spillSingleText()
        appendLiteral("</")
        append(name)
        appendLiteral(">")
    }

    /// Ends the capture: the text, as a string of its own (`buffer` is reused, and a value sharing its
    /// storage would keep the whole grown capacity alive as long as the entry lives), and whether it is HTML.
    mutating func finish() -> (text: String, isHTML: Bool) {
        isActive = false
        if let text = singleText {
            singleText = nil
            return (text, isHTML)
        }
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll(keepingCapacity: true)
        return (text, isHTML)
    }

    private mutating func spillSingleText() {
        if let text = singleText {
            append(text)
            singleText = nil
        }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private static let voidElements: Set<String> = ["br", "img", "hr", "input", "meta", "link", "area", "base",
                                                    "col", "embed", "source", "track", "wbr", "param"]
}
