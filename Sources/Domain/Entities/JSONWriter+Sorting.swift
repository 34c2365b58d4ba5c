extension JSONWriter {
    /// An object's members in key order (`String`'s `<`, as ever), without building a sorted array of
    /// (key, value) pairs: the keys and their dictionary positions are sorted in a buffer on the stack (for the
    /// usual few dozen members), and each value is read through its position, never hashed again.
    static func forEachSorted(_ members: [String: JSONValue], _ body: (String, JSONValue) -> Void) {
        switch members.count {
        case 0: return
        case 1: return body(members.first!.key, members.first!.value)
        default: break
        }
        typealias Entry = (key: String, index: Dictionary<String, JSONValue>.Index)
        withUnsafeTemporaryAllocation(of: Entry.self, capacity: members.count) { buffer in
            var entries = buffer
            var count = 0
            var index = members.startIndex
            while index != members.endIndex {
                (entries.baseAddress! + count).initialize(to: (members.keys[index], index))
                count += 1
                index = members.index(after: index)
            }
            defer { entries.baseAddress!.deinitialize(count: count) }
            entries.sort { $0.key < $1.key }
            for entry in entries { body(entry.key, members.values[entry.index]) }
        }
    }
}
