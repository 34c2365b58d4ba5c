import CLibXML2
import CLibXML2OnDemand
import Foundation

/// Checks XPath expressions the way the page reader will use them, for manifest validation: before any page is
/// read, an expression must compile, call only functions libxml2 has, evaluate on an empty page, and (`items`)
/// give a node set there. What depends on a page's content (a function call inside a predicate no node of the
/// empty page reaches with wrong arguments) is left to the run, which reports it as an error of the source.
public enum XPathSyntax {
    /// Nil when `expression` compiles; else libxml2's reason.
    public static func problem(in expression: String) -> XPathSyntaxError? {
        if case .failure(let error) = XPathQuery.compile(expression) { return error }
        return nil
    }

    /// Nil when nothing is wrong with `expression` that can be told without a page.
    /// - Parameter selectsNodes: whether its value must be a node set (`items`), not a string or number (a field).
    public static func check(_ expression: String, selectsNodes: Bool) -> XPathProblem? {
        let query: XPathQuery
        switch XPathQuery.compile(expression) {
        case .success(let compiled): query = compiled
        case .failure(let error): return .syntax(error)
        }
        let saved = aggregate_xml_silence_generic_errors()  // libxml2 also prints "function … not found"
        defer { aggregate_xml_restore_generic_errors(saved) }
        let page = "<html><head><title></title></head><body></body></html>"
        guard let document = page.withCString({
            htmlReadMemory($0, Int32(page.utf8.count), "about:blank", "UTF-8", HTMLPageParser.options)
        }) else { return nil }
        defer { xmlFreeDoc(document) }
        guard let context = XPathContext(document: document) else { return nil }
        let unknown = XPathFunctionNames.called(in: expression).filter { !context.hasFunction($0) }
        if !unknown.isEmpty { return .unknownFunctions(unknown) }
        switch query.evaluate(in: context, at: nil, { XPathValueKind($0) }) {
        case .failure(let error): return context.problem(error, in: expression)
        case .success(let kind) where selectsNodes && kind != .nodeSet: return .notNodeSet(kind)
        case .success: return nil
        }
    }
}

extension XPathContext {
    /// An evaluation's failure as a problem: an unregistered function is named (libxml2 2.9 gives only the code).
    func problem(_ error: XPathEvaluationError, in expression: String) -> XPathProblem {
        let unknown = XPathFunctionNames.called(in: expression).filter { !hasFunction($0) }
        return unknown.isEmpty ? .evaluation(error) : .unknownFunctions(unknown)
    }
}

/// What is wrong with an XPath expression, in words for a manifest problem (followed by the expression).
public enum XPathProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case syntax(XPathSyntaxError)
    case unknownFunctions([String])
    case evaluation(XPathEvaluationError)
    case notNodeSet(XPathValueKind)

    public var description: String {
        switch self {
        case .syntax(let error):
            return "not a valid XPath 1.0 expression: \(error)"
        case .unknownFunctions(let names):
            let list = names.map { "\($0)()" }.joined(separator: ", ")
            return "cannot be evaluated: Unregistered function \(list) (no such XPath 1.0 function)"
        case .evaluation(let error):
            return "cannot be evaluated: \(error)"
        case .notNodeSet(let kind):
            return "gives a \(kind), not a node set: items must select nodes"
        }
    }
}

/// The type of an XPath value.
public enum XPathValueKind: String, Sendable, Hashable, CustomStringConvertible {
    case nodeSet = "node set", boolean, number, string, other = "value of another type"

    init(_ result: xmlXPathObjectPtr) {
        switch result.pointee.type {
        case XPATH_NODESET: self = .nodeSet
        case XPATH_BOOLEAN: self = .boolean
        case XPATH_NUMBER: self = .number
        case XPATH_STRING: self = .string
        default: self = .other
        }
    }

    public var description: String { rawValue }
}

/// The names of the functions an XPath 1.0 expression calls (without a namespace prefix), found by its
/// lexical rules: a name followed by `(` that is no node type test (`node()`, `text()`, `comment()`,
/// `processing-instruction()`) and no operator name; string literals skipped.
enum XPathFunctionNames {
    private static let notFunctions: Set<String> = [
        "node", "text", "comment", "processing-instruction", "and", "or", "div", "mod",
    ]

    static func called(in expression: String) -> [String] {
        let characters = Array(expression.unicodeScalars)
        var names: [String] = []
        var index = 0
        func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || CharacterSet.letters.contains(scalar)
        }
        func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
            isNameStart(scalar) || scalar == "-" || scalar == "." || CharacterSet.decimalDigits.contains(scalar)
        }
        while index < characters.count {
            let scalar = characters[index]
            if scalar == "'" || scalar == "\"" {
                index += 1
                while index < characters.count, characters[index] != scalar { index += 1 }
                index += 1
            } else if scalar == "$" || scalar == "@" {
                // A variable's or an attribute's name, never a call.
                index += 1
                while index < characters.count, isNameCharacter(characters[index]) || characters[index] == ":" { index += 1 }
            } else if isNameStart(scalar) {
                let start = index
                var prefixed = false
                while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
                if index + 1 < characters.count, characters[index] == ":", isNameStart(characters[index + 1]) {
                    prefixed = true
                    index += 1
                    while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
                }
                let name = String(String.UnicodeScalarView(characters[start..<index]))
                var next = index
                while next < characters.count, characters[next].properties.isWhitespace { next += 1 }
                if next < characters.count, characters[next] == "(", !prefixed, !notFunctions.contains(name),
                   !names.contains(name) {
                    names.append(name)
                }
            } else if CharacterSet.decimalDigits.contains(scalar) {
                while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
            } else {
                index += 1
            }
        }
        return names
    }
}
