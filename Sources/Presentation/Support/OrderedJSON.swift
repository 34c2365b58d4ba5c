import Domain

/// A JSON document whose object members keep the order they were built in, so the output contract's
/// key order (`id`, `provider`, `status`, …) is stable. Leaves are `JSONValue`s, whose own objects (an
/// item's `fields`) are written with sorted keys.
///
/// Scalars are written by `JSONValue.compactJSON`: strings escaped the same way everywhere, doubles in
/// their shortest round-tripping form (`21.3`, never `21.300000000000001`), integral doubles without a
/// fraction (`21`, as `JSONValue` prints them), non-finite doubles as `null`.
enum OrderedJSON: Sendable {
    case value(JSONValue)
    case array([OrderedJSON])
    case object([(key: String, value: OrderedJSON)])

    static let null = OrderedJSON.value(.null)

    static func string(_ string: String?) -> OrderedJSON {
        string.map { .value(.string($0)) } ?? .null
    }

    /// One line, no spaces: for NDJSON.
    var compact: String {
        var out = ""
        write(to: &out, indent: nil, depth: 0)
        return out
    }

    /// Two-space indentation, `"key": value`, empty containers as `[]` and `{}`.
    var pretty: String {
        var out = ""
        write(to: &out, indent: "  ", depth: 0)
        return out
    }

    private func write(to out: inout String, indent: String?, depth: Int) {
        switch self {
        case .value(.array(let values)):
            OrderedJSON.array(values.map(OrderedJSON.value)).write(to: &out, indent: indent, depth: depth)
        case .value(.object(let members)):
            let sorted = members.keys.sorted().map { (key: $0, value: OrderedJSON.value(members[$0]!)) }
            OrderedJSON.object(sorted).write(to: &out, indent: indent, depth: depth)
        case .value(let scalar):
            out += scalar.compactJSON
        case .array(let elements):
            writeContainer(open: "[", close: "]", elements, to: &out, indent: indent, depth: depth) { element, out in
                element.write(to: &out, indent: indent, depth: depth + 1)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", members, to: &out, indent: indent, depth: depth) { member, out in
                out += JSONValue.string(member.key).compactJSON
                out += indent == nil ? ":" : ": "
                member.value.write(to: &out, indent: indent, depth: depth + 1)
            }
        }
    }

    private func writeContainer<Element>(
        open: String, close: String, _ elements: [Element], to out: inout String, indent: String?, depth: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        out += open
        guard !elements.isEmpty else {
            out += close
            return
        }
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            if let indent { out += "\n" + String(repeating: indent, count: depth + 1) }
            writeElement(element, &out)
        }
        if let indent { out += "\n" + String(repeating: indent, count: depth) }
        out += close
    }
}
