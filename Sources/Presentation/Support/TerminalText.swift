/// Text measured and cut the way a terminal shows it: by columns, not characters or bytes.
///
/// A grapheme cluster (a letter with its combining accents, a flag, an emoji sequence) takes the width of
/// its first scalar: 0 for combining marks and format characters, 2 for East Asian wide/fullwidth
/// characters and emoji presented as emoji, 1 otherwise. Close to `wcwidth`, without a table of its own.
enum TerminalText {
    /// Data made safe to print on a terminal: line breaks, tabs and other control characters (including
    /// ESC, so data cannot move the cursor or recolour the screen) become a single space each.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        var previousWasControl = false
        for character in text {
            if character.unicodeScalars.contains(where: isControl) {
                // "\r\n" is one Character, so a Windows line end becomes one space too.
                if !previousWasControl { out += " " }
                previousWasControl = true
            } else {
                out.append(character)
                previousWasControl = false
            }
        }
        return out
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    static func width(_ text: String) -> Int {
        // ASCII, the usual cell, without Unicode property lookups: every character is one column, and "\r\n",
        // one character of two bytes, is one column as well. The per-character rule gives the same.
        var columns = 0
        var afterCarriageReturn = false
        for byte in text.utf8 {
            guard byte < 0x80 else { return text.reduce(0) { $0 + width(of: $1) } }
            if !(afterCarriageReturn && byte == 10) { columns += 1 }
            afterCarriageReturn = byte == 13
        }
        return columns
    }

    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains("\u{FE0F}") { return 2 }  // emoji presentation selector
        return width(of: first)
    }

    static func width(of scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if properties.isEmojiPresentation { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` cut to at most `columns`, ending in `…` when something was cut.
    static func truncated(_ text: String, to columns: Int) -> String {
        guard width(text) > columns else { return text }
        guard columns > 0 else { return "" }
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = width(of: character)
            if used + characterWidth > columns - 1 { break }
            out.append(character)
            used += characterWidth
        }
        return out + "…"
    }

    enum Alignment: Sendable { case left, right }

    /// `text` truncated to `columns` and padded with spaces to exactly that width.
    static func fitted(_ text: String, to columns: Int, alignment: Alignment = .left) -> String {
        let cut = truncated(text, to: columns)
        let padding = String(repeating: " ", count: max(0, columns - width(cut)))
        return alignment == .left ? cut + padding : padding + cut
    }
}
