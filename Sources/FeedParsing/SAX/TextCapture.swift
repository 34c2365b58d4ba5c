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

    /// Whether text arriving now, with `openElements` open, is written back escaped (it sits in markup).
    func escapesText(depth openElements: Int) -> Bool {
        isActive && (isXHTML || (isHTML && openElements > depth))
    }

    /// Text in markup (`escapesText`), still as the parser's UTF-8 bytes: escaped straight into the buffer,
    /// with no string made for it on the way (making one was ~2 % of parsing feeds with XHTML content).
    mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        spillSingleText()
        FeedText.appendEscaped(bytes, to: &buffer)
    }

    mutating func append(_ string: String, depth openElements: Int) {
        guard isActive else { return }
        if escapesText(depth: openElements) {
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
        // Punctuation byte by byte: a one-element append is much cheaper than appending a short buffer.
        buffer.append(UInt8(ascii: "<"))
        append(name)
        // By name, as they always came out (they were a dictionary's); most tags have one or none.
        let pairs = attributes.pairs.count > 1 ? attributes.pairs.sorted { $0.name < $1.name } : attributes.pairs
        for (key, value) in pairs where !key.hasPrefix("xmlns") && key != "xml:base" {
            buffer.append(UInt8(ascii: " "))
            append(key)
            buffer.append(UInt8(ascii: "="))
            buffer.append(UInt8(ascii: "\""))
            FeedText.appendEscaped(value, to: &buffer, quotes: true)
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: ">"))
    }

    mutating func endTag(_ name: String) {
        guard isHTML, !Self.isVoidElement(name) else { return }
        spillSingleText()
        buffer.append(UInt8(ascii: "<"))
        buffer.append(UInt8(ascii: "/"))
        append(name)
        buffer.append(UInt8(ascii: ">"))
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

    /// HTML elements without an end tag. Length and first byte pick the one candidate a name can be, so an end
    /// tag costs at most one comparison (hashing each name into a set was ~1.4 % of parsing XHTML content).
    private static func isVoidElement(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard let first = utf8.first else { return false }
        let candidate: String
        switch (utf8.count, first) {
        case (2, UInt8(ascii: "b")): candidate = "br"
        case (2, UInt8(ascii: "h")): candidate = "hr"
        case (3, UInt8(ascii: "i")): candidate = "img"
        case (3, UInt8(ascii: "c")): candidate = "col"
        case (3, UInt8(ascii: "w")): candidate = "wbr"
        case (4, UInt8(ascii: "m")): candidate = "meta"
        case (4, UInt8(ascii: "l")): candidate = "link"
        case (4, UInt8(ascii: "a")): candidate = "area"
        case (4, UInt8(ascii: "b")): candidate = "base"
        case (5, UInt8(ascii: "i")): candidate = "input"
        case (5, UInt8(ascii: "e")): candidate = "embed"
        case (5, UInt8(ascii: "t")): candidate = "track"
        case (5, UInt8(ascii: "p")): candidate = "param"
        case (6, UInt8(ascii: "s")): candidate = "source"
        default: return false
        }
        return name == candidate
    }
}
