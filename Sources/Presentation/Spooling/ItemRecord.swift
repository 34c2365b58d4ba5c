import Domain
import Foundation

/// An item as bytes in an `ItemSpool`, and back: exactly the item that went in (strings byte for byte, dates
/// to the bit, integers and doubles kept apart), with the index of its source. Private to the spool, so the
/// format changes whenever it likes.
///
/// A record is its payload's length (LEB128), then: source index, kind, id, title, subtitle?, url?, date?,
/// and the fields (count, then key and value each). Values are a tag byte and their bytes.
enum ItemRecord {
    static func append(_ item: Item, source: Int, to out: inout [UInt8]) {
        var payload = ItemRecordWriter()
        payload.varint(UInt64(source))
        payload.out.append(UInt8(ItemKind.allCases.firstIndex(of: item.kind)!))
        payload.string(item.id)
        payload.string(item.title)
        payload.optional(item.subtitle)
        payload.optional(item.url?.absoluteString)
        if let date = item.date {
            payload.out.append(1)
            payload.fixed(date.timeIntervalSinceReferenceDate.bitPattern)
        } else {
            payload.out.append(0)
        }
        payload.varint(UInt64(item.fields.count))
        for (key, value) in item.fields {
            payload.string(key)
            payload.value(value)
        }
        var length = ItemRecordWriter()
        length.varint(UInt64(payload.out.count))
        out.append(contentsOf: length.out)
        out.append(contentsOf: payload.out)
    }

    /// The length of the record starting at `bytes[0]` (its length prefix included), or nil when `bytes` does
    /// not hold the whole prefix yet.
    static func length(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var reader = ItemRecordReader(bytes: bytes)
        guard let payload = reader.varintIfComplete() else { return nil }
        return reader.index + Int(payload)
    }

    /// The item and source index of the whole record in `bytes` (from its length prefix on).
    static func read(_ bytes: UnsafeRawBufferPointer) -> (source: Int, item: Item) {
        var reader = ItemRecordReader(bytes: bytes)
        _ = reader.varint()
        let source = Int(reader.varint())
        let kind = ItemKind.allCases[Int(reader.byte())]
        let id = reader.string()
        let title = reader.string()
        let subtitle = reader.optional()
        let url = reader.optional().flatMap(URL.init(string:))
        let date = reader.byte() == 1 ? Date(timeIntervalSinceReferenceDate: Double(bitPattern: reader.fixed())) : nil
        let count = Int(reader.varint())
        let fields = reader.members(count: count)
        return (source, Item(kind: kind, id: id, title: title, subtitle: subtitle, url: url, date: date, fields: fields))
    }
}

private enum ValueTag: UInt8 {
    case null, isFalse, isTrue, int, double, string, array, object
}

private struct ItemRecordWriter {
    var out: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    mutating func fixed(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            varint(UInt64(bytes.count))
            out.append(contentsOf: bytes)
        }
    }

    mutating func optional(_ text: String?) {
        guard let text else { return out.append(0) }
        out.append(1)
        string(text)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: out.append(ValueTag.null.rawValue)
        case .bool(let flag): out.append((flag ? ValueTag.isTrue : .isFalse).rawValue)
        case .int(let number):
            out.append(ValueTag.int.rawValue)
            fixed(UInt64(bitPattern: Int64(number)))
        case .double(let number):
            out.append(ValueTag.double.rawValue)
            fixed(number.bitPattern)
        case .string(let text):
            out.append(ValueTag.string.rawValue)
            string(text)
        case .array(let values):
            out.append(ValueTag.array.rawValue)
            varint(UInt64(values.count))
            for element in values { self.value(element) }
        case .object(let members):
            out.append(ValueTag.object.rawValue)
            varint(UInt64(members.count))
            for (key, member) in members {
                string(key)
                self.value(member)
            }
        }
    }
}

private struct ItemRecordReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return bytes[index]
    }

    mutating func varint() -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    /// `varint()`, or nil when the bytes end before it does.
    mutating func varintIfComplete() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            let next = byte()
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    mutating func fixed() -> UInt64 {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { value |= UInt64(byte()) << UInt64(shift) }
        return value
    }

    mutating func string() -> String {
        let count = Int(varint())
        defer { index += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<index + count]), as: UTF8.self)
    }

    mutating func optional() -> String? {
        byte() == 1 ? string() : nil
    }

    mutating func value() -> JSONValue {
        switch ValueTag(rawValue: byte())! {
        case .null: return .null
        case .isFalse: return .bool(false)
        case .isTrue: return .bool(true)
        case .int: return .int(Int(Int64(bitPattern: fixed())))
        case .double: return .double(Double(bitPattern: fixed()))
        case .string: return .string(string())
        case .array:
            let count = Int(varint())
            var values: [JSONValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count { values.append(value()) }
            return .array(values)
        case .object:
            return .object(members(count: Int(varint())))
        }
    }

    /// An object's members, written in key order (so the object takes them without sorting).
    mutating func members(count: Int) -> JSONObject {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(count)
        for _ in 0..<count {
            let key = string()
            members.append((key, value()))
        }
        return JSONObject(members: members)
    }
}
