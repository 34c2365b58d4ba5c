import Foundation

/// A full-text query over the item archive, in the one syntax every store understands:
///
/// - `rust wasm`: items with both words (a word matches its stem too: `parse` finds `parsing`);
/// - `"exact phrase"`: the words in this order;
/// - `wasm*`: a prefix;
/// - `swift OR rust`: either side (binds tighter than the implicit AND: `feed swift OR rust`);
/// - `-word`, `-"a phrase"`: leaves out items that have it (a query needs at least one term that is not left out).
///
/// Each store renders it in its own engine's language (SQLite FTS5 `MATCH`, PostgreSQL `tsquery`), so a user's
/// text never reaches either engine's parser as it is: a mistake is a `SearchQuery.SyntaxError` naming it.
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// A word or phrase.
    public enum Term: Sendable, Hashable {
        /// One word; `prefix`: it ends with `*`.
        case word(String, prefix: Bool)
        /// Words in this order.
        case phrase([String])
    }

    /// Every group must match; a group matches when any of its terms does.
    public var required: [[Term]]
    /// No item with one of these matches.
    public var excluded: [Term]

    /// The longest query text accepted, and the most terms.
    public static let maxLength = 256
    /// See `maxLength`.
    public static let maxTerms = 32

    /// Why a query text is not one, in words for the user.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with the text.
        public var message: String
        /// The ``message``.
        public var description: String { message }
        init(_ message: String) { self.message = message }
    }

    /// Parses `text`; throws when it is too long, has too many terms, or is malformed.
    public init(_ text: String) throws(SyntaxError) {
        guard text.count <= Self.maxLength else {
            throw SyntaxError("the query is longer than \(Self.maxLength) characters")
        }
        let tokens = try Self.tokenize(text)
        var required: [[Term]] = []
        var excluded: [Term] = []
        var index = 0
        var joinNext = false
        while index < tokens.count {
            switch tokens[index] {
            case .or:
                guard !required.isEmpty, !joinNext, index + 1 < tokens.count else {
                    throw SyntaxError("OR needs a word or phrase on each side")
                }
                joinNext = true
            case .term(let term, let negated):
                if negated {
                    guard !joinNext else { throw SyntaxError("OR cannot join a left-out term (-…)") }
                    excluded.append(term)
                } else if joinNext {
                    required[required.count - 1].append(term)
                    joinNext = false
                } else {
                    required.append([term])
                }
            }
            index += 1
        }
        guard !required.isEmpty else {
            throw SyntaxError(excluded.isEmpty
                ? "the query has no word to search for"
                : "the query only leaves words out (-…): give at least one word to search for")
        }
        guard required.joined().count + excluded.count <= Self.maxTerms else {
            throw SyntaxError("the query has more than \(Self.maxTerms) words and phrases")
        }
        self.required = required
        self.excluded = excluded
    }

    /// The query written back in its own syntax (normalised).
    public var description: String {
        func text(_ term: Term) -> String {
            switch term {
            case .word(let word, let prefix): return word + (prefix ? "*" : "")
            case .phrase(let words): return "\"" + words.joined(separator: " ") + "\""
            }
        }
        let groups = required.map { $0.map(text).joined(separator: " OR ") }
        return (groups + excluded.map { "-" + text($0) }).joined(separator: " ")
    }

    private enum Token {
        case term(Term, negated: Bool)
        case or
    }

    private static func tokenize(_ text: String) throws(SyntaxError) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            var negated = false
            if rest.first == "-" {
                negated = true
                rest = rest.dropFirst()
                guard let next = rest.first, !next.isWhitespace else {
                    throw SyntaxError("a '-' must stand right before the word or phrase it leaves out")
                }
            }
            if rest.first == "\"" {
                rest = rest.dropFirst()
                guard let close = rest.firstIndex(of: "\"") else { throw SyntaxError("a phrase is missing its closing '\"'") }
                let words = words(in: rest[..<close])
                rest = rest[rest.index(after: close)...]
                guard !words.isEmpty else { throw SyntaxError("an empty phrase (\"\") matches nothing") }
                tokens.append(.term(words.count == 1 ? .word(words[0], prefix: false) : .phrase(words), negated: negated))
                continue
            }
            let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
            var word = rest[..<end]
            rest = rest[end...]
            if word == "OR", !negated {
                tokens.append(.or)
                continue
            }
            guard !word.contains("\"") else { throw SyntaxError("a '\"' must start or end a phrase: \(word)") }
            let prefix = word.hasSuffix("*")
            if prefix { word = word.dropLast() }
            guard !word.contains("*") else { throw SyntaxError("'*' may only end a word, as in wasm*: \(word)*") }
            let parts = words(in: word)
            switch parts.count {
            case 0:
                throw SyntaxError(prefix ? "'*' must follow the start of a word, as in wasm*" : "'\(word)' has no letter or digit to search for")
            case 1:
                tokens.append(.term(.word(parts[0], prefix: prefix), negated: negated))
            default:
                // `e-mail`, `swift.org`: its parts in this order, as the index stores them.
                guard !prefix else { throw SyntaxError("'*' may only end a plain word, as in wasm*: \(word)*") }
                tokens.append(.term(.phrase(parts), negated: negated))
            }
        }
        return tokens
    }

    /// The letters-and-digits runs of `text`, lowercased: what both indexes treat as words.
    static func words(in text: Substring) -> [String] {
        text.split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map { $0.lowercased() }
    }
}
