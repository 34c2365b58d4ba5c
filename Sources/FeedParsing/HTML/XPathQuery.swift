import CLibXML2
import CLibXML2OnDemand
import Foundation

/// An XPath 1.0 expression compiled by libxml2, for one thread's use (a compiled expression and its evaluation
/// context are libxml2 objects; the page reader makes its own per page).
final class XPathQuery {
    private let compiled: OpaquePointer

    /// Compiles `expression`, or returns libxml2's reason it is no XPath 1.0.
    static func compile(_ expression: String) -> Result<XPathQuery, XPathSyntaxError> {
        _ = LibXML2PushParser.initialized
        // libxml2 reports a syntax error to the thread's generic error handler (stderr) as well as its last-error
        // slot: the first is silenced for the call, the second read.
        let saved = aggregate_xml_silence_generic_errors()
        defer { aggregate_xml_restore_generic_errors(saved) }
        xmlResetLastError()
        let compiled = expression.withCString { text in
            text.withMemoryRebound(to: xmlChar.self, capacity: expression.utf8.count + 1) { xmlXPathCompile($0) }
        }
        guard let compiled else {
            var reason = "not an XPath 1.0 expression"
            var position: Int?
            if let error = xmlGetLastError(), let message = error.pointee.message {
                reason = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
                position = Int(error.pointee.int1)
            }
            return .failure(XPathSyntaxError(reason: reason, position: position))
        }
        return .success(XPathQuery(compiled))
    }

    private init(_ compiled: OpaquePointer) {
        self.compiled = compiled
    }

    deinit { xmlXPathFreeCompExpr(compiled) }

    /// Evaluates the expression with `node` as the context node. The result is freed when `body` returns; an
    /// evaluation libxml2 gave up (an unregistered function, a wrong argument type, a number where nodes must
    /// be) is its reason instead.
    func evaluate<T>(
        in context: XPathContext, at node: xmlNodePtr?, _ body: (xmlXPathObjectPtr) -> T
    ) -> Result<T, XPathEvaluationError> {
        context.raw.pointee.node = node
        withUnsafeMutablePointer(to: &context.raw.pointee.lastError) { xmlResetError($0) }
        guard let result = xmlXPathCompiledEval(compiled, context.raw) else {
            return .failure(context.lastEvaluationError)
        }
        defer { xmlXPathFreeObject(result) }
        return .success(body(result))
    }
}

/// libxml2's evaluation context over one document.
final class XPathContext {
    /// Steps one evaluation may take: far above any real page's needs, it stops an expression that would run for
    /// minutes (`//*//*//*//*` over a large page) with an error instead.
    static let operationLimit: UInt = 50_000_000

    let raw: xmlXPathContextPtr

    init?(document: xmlDocPtr) {
        guard let raw = xmlXPathNewContext(document) else { return nil }
        raw.pointee.opLimit = Self.operationLimit
        aggregate_xpath_keep_errors(raw)  // an evaluation's error is kept for `lastEvaluationError`, not printed
        self.raw = raw
    }

    deinit { xmlXPathFreeContext(raw) }

    /// Why the last evaluation failed: libxml2's message when it gave one (2.12 and later), else the message
    /// libxml2 has for its error code (2.9 keeps only the code in the context).
    var lastEvaluationError: XPathEvaluationError {
        let error = raw.pointee.lastError
        if let message = error.message {
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { return XPathEvaluationError(reason: text) }
        }
        let code = Int(error.code) - Int(XML_XPATH_EXPRESSION_OK.rawValue)
        let reason = XPathEvaluationError.messages.indices.contains(code) && code > 0
            ? XPathEvaluationError.messages[code] : "evaluation failed"
        return XPathEvaluationError(reason: reason)
    }

    /// Whether `name` (without a prefix) is a function XPath 1.0 expressions can call here.
    func hasFunction(_ name: String) -> Bool {
        name.withCString { text in
            text.withMemoryRebound(to: xmlChar.self, capacity: name.utf8.count + 1) {
                xmlXPathFunctionLookup(raw, $0) != nil
            }
        }
    }
}

/// Why libxml2 could not evaluate an expression, in its words.
public struct XPathEvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String

    public var description: String { reason }

    /// libxml2's messages for its XPath error codes, in the order of `xmlXPathError` (xpath.c's
    /// `xmlXPathErrorMessages`), for a libxml2 that keeps only the code.
    static let messages = [
        "Ok", "Number encoding", "Unfinished literal", "Start of literal", "Expected $ for variable reference",
        "Undefined variable", "Invalid predicate", "Invalid expression", "Missing closing curly brace",
        "Unregistered function", "Invalid operand", "Invalid type", "Invalid number of arguments",
        "Invalid context size", "Invalid context position", "Memory allocation error", "Syntax error",
        "Resource error", "Sub resource error", "Undefined namespace prefix", "Encoding error",
        "Char out of XML range", "Invalid or incomplete context", "Stack usage error", "Forbidden variable",
        "Operation limit exceeded", "Recursion limit exceeded",
    ]
}

/// Why an expression is no XPath 1.0, in libxml2's words.
public struct XPathSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var reason: String
    /// Where in the expression libxml2 stopped (0-based), when it said.
    public var position: Int?

    public var description: String {
        position.map { "\(reason) (at character \($0 + 1))" } ?? reason
    }
}
