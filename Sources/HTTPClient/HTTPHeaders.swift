import Foundation

/// HTTP header fields with case-insensitive names, in the order they were given.
///
/// Services disagree on case (`X-RateLimit-Reset` vs `x-ratelimit-reset`), so lookups ignore it; a name may
/// repeat (`Link` split over two fields), and `values(for:)` returns every occurrence.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as it was received or will be sent.
    public struct Field: Sendable, Hashable {
        /// The name as given; compare it ignoring case.
        public var name: String
        /// The value as given.
        public var value: String

        /// A field named `name` with `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field] = []

    /// No fields.
    public init() {}

    /// The `(name, value)` pairs, in order, repeated names kept.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// `["Accept": "application/json"]`: the pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value for `name`; setting replaces every field of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            remove(name)
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of fields named `name` (ignoring case), in order; empty when there is none.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// Whether any field is named `name` (ignoring case).
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name` (ignoring case).
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Whether there is no field at all.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
}
