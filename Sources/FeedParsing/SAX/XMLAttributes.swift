/// An element's attributes as the builder reads them: namespace declarations first (as `xmlns` / `xmlns:p`),
/// then the attributes by qualified name, in document order; the first of a name wins.
///
/// An element carries a handful, so finding one by scanning beats hashing every name into a dictionary (that
/// was ~8 % of parsing a feed with XHTML content). The handler refills one buffer per element; the builder
/// borrows it for the call and keeps nothing of it but strings.
struct XMLAttributes {
    private(set) var pairs: [(name: String, value: String)] = []

    var isEmpty: Bool { pairs.isEmpty }

    /// The value of the attribute named `name` (qualified, as `prefix:local`), if the element has it.
    subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    /// Adds `name` unless the element already has it (the value is only made then).
    mutating func add(_ name: String, _ value: () -> String) {
        for pair in pairs where pair.name == name { return }
        pairs.append((name, value()))
    }

    /// Most elements have no attributes: then there is nothing to clear (an empty `removeAll` still cost ~100
    /// instructions an element).
    mutating func removeAll() {
        if !pairs.isEmpty { pairs.removeAll(keepingCapacity: true) }
    }
}

