/// A JSON object: its members kept in key order (`String`'s `<`, the order the output contract writes), each key
/// once.
///
/// A sorted array rather than a dictionary. The objects aggregate handles are rows and their small nested
/// objects (a few to a few dozen members): a binary search finds a key without hashing it, a parsed row costs one
/// allocation for its members instead of a hash table, and writing needs no sort because the storage is the
/// output's order. On a million NDJSON lines, hashing the keys in and sorting them out was about a sixth of the
/// run (BENCHMARKS.md, round five).
///
/// Reads like a dictionary: `object["key"]`, `for (key, value) in object`, `keys`, `count`, dictionary
/// literals. Setting a key that is not there yet inserts it in its place (linear in the members, as ordered
/// storage must); build a large object from all its members at once with `init(members:)` instead.
public struct JSONObject: Sendable {
    /// One member: its key and its value.
    public typealias Member = (key: String, value: JSONValue)

    /// Sorted by key, no key twice.
    public private(set) var members: [Member]

    /// An empty object.
    public init() {
        members = []
    }

    /// The members of a dictionary, sorted.
    public init(_ dictionary: [String: JSONValue]) {
        members = Array(dictionary)
        members.sort { $0.key < $1.key }
    }

    /// Members in any order; of a key given twice, the later value wins (as assigning into a dictionary does).
    public init(members unordered: [Member]) {
        members = unordered
        guard !Self.isStrictlyIncreasing(members) else { return }
        Self.sortStably(&members)
        Self.keepLastOfEachKey(&members)
    }

    /// Members already in key order, no key twice (the parser's, which sorted them by a shape it knows).
    package init(sortedUnique members: [Member]) {
        self.members = members
    }

    /// The object as a dictionary (for APIs that take one).
    public var dictionary: [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: members)
    }

    /// The keys, sorted.
    public var keys: [String] { members.map(\.key) }
    /// The values, in the order of their sorted keys.
    public var values: [JSONValue] { members.map(\.value) }

    /// Where `key`'s member is, or nil.
    public func index(forKey key: String) -> Int? {
        let slot = insertionPoint(of: key)
        return slot < members.count && members[slot].key == key ? slot : nil
    }

    /// The value at `key`, or nil when there is none; setting nil removes the member, setting a value inserts or
    /// replaces it in its sorted place.
    public subscript(key: String) -> JSONValue? {
        get { index(forKey: key).map { members[$0].value } }
        set {
            let slot = insertionPoint(of: key)
            let present = slot < members.count && members[slot].key == key
            switch (present, newValue) {
            case (true, let value?): members[slot].value = value
            case (true, nil): members.remove(at: slot)
            case (false, let value?): members.insert((key, value), at: slot)
            case (false, nil): break
            }
        }
    }

    /// Sets the value of the member at `index` (found by `index(forKey:)`), its key unchanged.
    public mutating func replaceValue(at index: Int, with value: JSONValue) {
        members[index].value = value
    }

    /// Removes the member at `key` and returns its value; nil when there was none.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let slot = index(forKey: key) else { return nil }
        return members.remove(at: slot).value
    }

    /// The same keys, each value transformed.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var result = self
        for index in result.members.indices { result.members[index].value = try transform(result.members[index].value) }
        return result
    }

    /// The keys whose values `transform` turns into something, as a dictionary (`env` and `headers` options).
    public func compactMapValues<T>(_ transform: (JSONValue) throws -> T?) rethrows -> [String: T] {
        var result: [String: T] = [:]
        for (key, value) in members { if let mapped = try transform(value) { result[key] = mapped } }
        return result
    }

    /// Adds `other`'s members; for a key in both, `combine` gets this object's value and `other`'s.
    public mutating func merge(
        _ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows {
        for (key, value) in other.members { self[key] = try self[key].map { try combine($0, value) } ?? value }
    }

    /// A copy with `other`'s members added; for a key in both, `combine` gets this object's value and `other`'s.
    public func merging(
        _ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows -> JSONObject {
        var result = self
        try result.merge(other, uniquingKeysWith: combine)
        return result
    }

    /// The members that satisfy `isIncluded`, still an object.
    public func filter(_ isIncluded: (Member) throws -> Bool) rethrows -> JSONObject {
        var result = JSONObject()
        result.members = try members.filter(isIncluded)
        return result
    }

    /// The first member whose key is not less than `key` (binary search).
    private func insertionPoint(of key: String) -> Int {
        var low = 0
        var high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the members are in key order already, no key twice (a writer's own output read back, a provider
    /// that gathers its fields in order).
    private static func isStrictlyIncreasing(_ members: [Member]) -> Bool {
        guard members.count > 1 else { return true }
        for index in 1..<members.count where !(members[index - 1].key < members[index].key) { return false }
        return true
    }

    /// A stable sort by key: insertion sort for the usual few members, else the standard sort on (key, position).
    private static func sortStably(_ members: inout [Member]) {
        guard members.count <= 32 else {
            members = members.enumerated()
                .sorted { $0.element.key != $1.element.key ? $0.element.key < $1.element.key : $0.offset < $1.offset }
                .map(\.element)
            return
        }
        for index in 1..<members.count {
            var position = index
            while position > 0, members[position].key < members[position - 1].key {
                members.swapAt(position, position - 1)
                position -= 1
            }
        }
    }

    /// Of equal keys (adjacent after a stable sort), keeps the last.
    private static func keepLastOfEachKey(_ members: inout [Member]) {
        guard members.count > 1 else { return }
        var kept = 0
        for index in 1..<members.count {
            if members[index].key == members[kept].key {
                members.swapAt(kept, index)
            } else {
                kept += 1
                if kept != index { members.swapAt(kept, index) }
            }
        }
        members.removeSubrange((kept + 1)...)
    }
}

extension JSONObject: RandomAccessCollection {
    /// 0: the first member's position.
    public var startIndex: Int { 0 }
    /// The number of members: one past the last position.
    public var endIndex: Int { members.count }
    /// The member at `position`, in key order.
    public subscript(position: Int) -> Member { members[position] }
}

extension JSONObject: Hashable {
    /// Equal when they hold the same keys with equal values.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members, keys and values, in key order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for (key, value) in members {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// `["a": 1, "b": "x"]`; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(members: elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONObject: Codable {
    /// Decodes a JSON object (a keyed container of JSON values).
    public init(from decoder: any Decoder) throws {
        self.init(try [String: JSONValue](from: decoder))
    }

    /// Encodes the members as a keyed container.
    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}

extension JSONObject: CustomStringConvertible {
    /// Compact JSON (keys in order).
    public var description: String { JSONValue.object(self).compactJSON }
}
