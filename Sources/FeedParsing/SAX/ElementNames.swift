/// Namespace bindings in scope and what each qualified element name means under them.
///
/// The handler hands libxml2's namespace declarations over as `xmlns` attributes and names as `prefix:local`;
/// the bindings are tracked here, scopes pushed only by the elements that declare some, so an undeclared
/// prefix (`dc:` without its `xmlns:dc`, common in feeds) still means what feeds mean by it. Names are
/// classified once per scope and cached; an inner scope's end brings the outer one's cache back (XHTML content
/// declares its namespace in every entry, and classifying the entry's names again each time was ~1 % of a run).
struct ElementNames {
    private struct Scope {
        var prefixes: [String: String] = [:]
        var classified: [String: FeedElement] = [:]
        var recentNames: [(String, FeedElement)] = []
        /// Where in `recentNames` the last name was found.
        var lastHit = 0
    }

    private var scope = Scope()
    private var savedScopes: [Scope] = []

    /// Applies `xmlns` / `xmlns:p` attributes; true when the element declared any (a scope to end with it).
    mutating func declareNamespaces(_ attributes: XMLAttributes) -> Bool {
        var declared = false
        for (key, value) in attributes.pairs where key.hasPrefix("xmlns") {
            let prefix: String
            if key == "xmlns" {
                prefix = ""
            } else if key.utf8.count > 6, key.utf8[key.utf8.index(key.utf8.startIndex, offsetBy: 5)] == UInt8(ascii: ":") {
                prefix = String(key.dropFirst(6))
            } else {
                continue
            }
            if !declared {
                savedScopes.append(scope)
                scope.classified = [:]
                scope.recentNames = []
                scope.lastHit = 0
                declared = true
            }
            scope.prefixes[prefix] = value
        }
        return declared
    }

    /// The element that declared namespaces has ended.
    mutating func endScope() {
        scope = savedScopes.removeLast()
    }

    /// What no namespace means changed (the document turned out to be Atom): names may mean something else,
    /// in every scope.
    mutating func forgetClassifiedNames() {
        scope.classified.removeAll(keepingCapacity: true)
        scope.recentNames.removeAll(keepingCapacity: true)
        scope.lastHit = 0
        for index in savedScopes.indices {
            savedScopes[index].classified = [:]
            savedScopes[index].recentNames = []
            savedScopes[index].lastHit = 0
        }
    }

    mutating func classify(_ qualifiedName: String, atomDocument: Bool) -> FeedElement {
        // A feed repeats a dozen names; comparing short (inline) strings beats hashing them. Its entries repeat
        // them in the order they were first met, so the name after the last one found is looked at first, then
        // that one again (a second category), then the rest: one comparison for most elements, not five.
        let count = scope.recentNames.count
        if count > 0 {
            let next = scope.lastHit + 1 < count ? scope.lastHit + 1 : 0
            if scope.recentNames[next].0 == qualifiedName { return hit(next) }
            if scope.recentNames[scope.lastHit].0 == qualifiedName { return hit(scope.lastHit) }
            for index in 0..<count where index != next && index != scope.lastHit {
                if scope.recentNames[index].0 == qualifiedName { return hit(index) }
            }
        }
        let element = classifyUncached(qualifiedName, atomDocument: atomDocument)
        if count < 24 {
            scope.recentNames.append((qualifiedName, element))
            scope.lastHit = count
        }
        return element
    }

    private mutating func hit(_ index: Int) -> FeedElement {
        scope.lastHit = index
        return scope.recentNames[index].1
    }

    private mutating func classifyUncached(_ qualifiedName: String, atomDocument: Bool) -> FeedElement {
        if let known = scope.classified[qualifiedName] { return known }
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
        if let uri = scope.prefixes[String(prefix)] {
            namespace = FeedElement.Namespace(uri: uri)
        } else {
            namespace = prefix.isEmpty ? .none : FeedElement.Namespace(undeclaredPrefix: prefix)
        }
        let element = FeedElement.classify(namespace: namespace, local: local, atomDocument: atomDocument)
        scope.classified[qualifiedName] = element
        return element
    }
}
