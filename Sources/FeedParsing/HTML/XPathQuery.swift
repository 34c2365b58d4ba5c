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

    /// Evaluates the expression with `node` as the context node. The result is freed when `body` returns.
    func evaluate<T>(in context: XPathContext, at node: xmlNodePtr?, _ body: (xmlXPathObjectPtr?) -> T) -> T {
        context.raw.pointee.node = node
        let result = xmlXPathCompiledEval(compiled, context.raw)
        defer { if let result { xmlXPathFreeObject(result) } }
        return body(result)
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
        self.raw = raw
    }

    deinit { xmlXPathFreeContext(raw) }
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

/// Checks XPath expressions the way the page reader will compile them, for manifest validation.
public enum XPathSyntax {
    /// Nil when `expression` compiles; else libxml2's reason.
    public static func problem(in expression: String) -> XPathSyntaxError? {
        if case .failure(let error) = XPathQuery.compile(expression) { return error }
        return nil
    }
}
