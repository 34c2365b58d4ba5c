import Domain
import Foundation
import Testing

@Suite("JSONObject")
struct JSONObjectTests {
    @Test("members are kept in key order, whatever order they came in")
    func keyOrder() {
        let object = JSONObject(members: [("title", "a"), ("id", 1), ("b", .null), ("A", true)])
        #expect(object.keys == ["A", "b", "id", "title"])
        #expect(object.description == #"{"A":true,"b":null,"id":1,"title":"a"}"#)
    }

    @Test("of a key given twice the later value wins, as assigning into a dictionary does", arguments: [3, 40])
    func laterDuplicateWins(width: Int) {
        // 40 members take the standard sort rather than the insertion sort; both must keep the later copy.
        var members: [JSONObject.Member] = (0..<width).map { ("k\($0)", .int($0)) }
        members.insert(("k1", "first"), at: 0)
        members.append(("k1", "last"))
        let object = JSONObject(members: members)
        #expect(object.count == width)
        #expect(object["k1"] == "last")
        #expect(object.keys == (0..<width).map { "k\($0)" }.sorted())
        #expect(object == JSONObject(Dictionary(members, uniquingKeysWith: { _, last in last })))
    }

    @Test("setting a key inserts it in its place, replaces it, or with nil removes it")
    func subscriptSet() {
        var object: JSONObject = ["b": 2, "d": 4]
        object["c"] = 3
        object["a"] = 1
        object["e"] = 5
        #expect(object.keys == ["a", "b", "c", "d", "e"])
        object["c"] = "three"
        #expect(object["c"] == "three")
        object["b"] = nil
        object["zz"] = nil
        #expect(object.keys == ["a", "c", "d", "e"])
        #expect(object.removeValue(forKey: "a") == 1)
        #expect(object.removeValue(forKey: "a") == nil)
        #expect(object["a"] == nil)
        #expect(object.index(forKey: "d") == 1)
        object.replaceValue(at: 1, with: .null)
        #expect(object["d"] == .null)
    }

    @Test("equal members make equal objects with equal hashes, however they were built")
    func equality() {
        let literal: JSONObject = ["x": 1, "y": [1, 2], "z": ["n": nil]]
        var assigned = JSONObject()
        assigned["z"] = ["n": nil]
        assigned["x"] = 1
        assigned["y"] = [1, 2]
        #expect(literal == assigned)
        #expect(literal.hashValue == assigned.hashValue)
        #expect(Set([JSONValue.object(literal), .object(assigned)]).count == 1)
        #expect(literal != ["x": 1, "y": [1, 2]])
        #expect(literal != ["x": 2, "y": [1, 2], "z": ["n": nil]])
    }

    @Test("the dictionary conveniences keep their meaning")
    func conveniences() throws {
        let object: JSONObject = ["a": 1, "b": "two", "c": nil]
        #expect(object.merging(["b": 3, "d": 4]) { $1 } == ["a": 1, "b": 3, "c": nil, "d": 4])
        #expect(object.merging(["b": 3]) { old, _ in old } == object)
        #expect(object.compactMapValues(\.stringValue) == ["b": "two"])
        #expect(object.mapValues { _ in .bool(true) } == ["a": true, "b": true, "c": true])
        #expect(object.filter { $0.value != .null } == ["a": 1, "b": "two"])
        #expect(object.dictionary == ["a": 1, "b": "two", "c": .null])
        let decoded = try JSONDecoder().decode(JSONObject.self, from: JSONEncoder().encode(object))
        #expect(decoded == object)
    }
}
