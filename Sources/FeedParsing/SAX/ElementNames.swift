/// Namespace bindings in scope and what each qualified element name means under them.
///
/// The handler hands libxml2's namespace declarations over as `xmlns` attributes and names as `prefix:local`;
/// the bindings are tracked here, scopes pushed only by the elements that declare some, so an undeclared
/// prefix (`dc:` without its `xmlns:dc`, common in feeds) still means what feeds mean by it. Names are
/// classified once and cached until the bindings change.
struct ElementNames {
    private var prefixes: [String: String] = [:]
    private var savedPrefixes: [[String: String]] = []
    private var classified: [String: FeedElement] = [:]
    private var recentNames: [(String, FeedElement)] = []

    /// Applies `xmlns` / `xmlns:p` attributes; true when the element declared any (a scope to end with it).
    mutating func declareNamespaces(_ attributes: [String: String]) -> Bool {
        var declared = false
        for (key, value) in attributes where key.hasPrefix("xmlns") {
            let prefix: String
            if key == "xmlns" {
                prefix = ""
            } else if key.utf8.count > 6, key.utf8[key.utf8.index(key.utf8.startIndex, offsetBy: 5)] == UInt8(ascii: ":") {
                prefix = String(key.dropFirst(6))
            } else {
                continue
            }
            if !declared {
                savedPrefixes.append(prefixes)
                declared = true
            }
            prefixes[prefix] = value
        }
        if declared { forgetClassifiedNames() }
        return declared
    }

    /// The element that declared namespaces has ended.
    mutating func endScope() {
        prefixes = savedPrefixes.removeLast()
        forgetClassifiedNames()
    }

    /// The bindings (or what no namespace means) changed: names may mean something else now.
    mutating func forgetClassifiedNames() {
        classified.removeAll(keepingCapacity: true)
        recentNames.removeAll(keepingCapacity: true)
    }

    mutating func classify(_ qualifiedName: String, atomDocument: Bool) -> FeedElement {
        // A feed repeats a dozen names; comparing short (inline) strings beats hashing them.
        for (name, element) in recentNames where name == qualifiedName { return element }
        let element = classifyUncached(qualifiedName, atomDocument: atomDocument)
        if recentNames.count < 24 { recentNames.append((qualifiedName, element)) }
        return element
    }

    private mutating func classifyUncached(_ qualifiedName: String, atomDocument: Bool) -> FeedElement {
        if let known = classified[qualifiedName] { return known }
        let prefix: Substring
        let local: Substring
        if let colon = qualifiedName.firstIndex(of: ":") {
            prefix = qualifiedName[..<colon]
            local = qualifiedName[qualifiedName.index(after: colon)...]
        } else {
            prefix = ""
            local = qualifiedName[...]
        }
        let namespace: FeedElement.Namespace
        if let uri = prefixes[String(prefix)] {
            namespace = FeedElement.Namespace(uri: uri)
        } else {
            namespace = prefix.isEmpty ? .none : FeedElement.Namespace(undeclaredPrefix: prefix)
        }
        let element = FeedElement.classify(namespace: namespace, local: local, atomDocument: atomDocument)
        classified[qualifiedName] = element
        return element
    }
}
