import Domain
import Foundation
import JSON

/// The bytes of a staged archive row (`ArchiveStaging`): items in a compact binary form, written on the run's
/// path and read back only by the same store. Strings are their UTF-8 bytes after their length, numbers their 8
/// bytes, so nothing is escaped or formatted: writing 200,000 items this way costs a third of writing them as
/// JSON (BENCHMARKS.md, "The item archive").
///
/// A row is `version, count, item…`; an item is `id, kind, title, subtitle?, url?, date?, fields`; a value is a
/// tag byte and its content. Lengths and counts are unsigned LEB128.
enum StagedItems {
    static let version: UInt8 = 1

    private enum Tag: UInt8 {
        case null, falseValue, trueValue, int, double, string, array, object
    }

    /// `items` as one row's bytes.
    static func encode(_ items: ArraySlice<Item>) -> [UInt8] {
        var output = JSONWriter(capacity: 256 * items.count)
        output.staged { stage in
            var writer = Writer(stage: stage)
            writer.stage.put(version)
            writer.count(items.count)
            for item in items {
                writer.string(item.id)
                writer.string(item.kind.rawValue)
                writer.string(item.title)
                writer.optional(item.subtitle)
                writer.optional(item.url?.absoluteString)
                if let date = item.date {
                    writer.stage.put(1)
                    writer.word(date.timeIntervalSince1970.bitPattern)
                } else {
                    writer.stage.put(0)
                }
                writer.object(item.fields)
            }
            stage = writer.stage
        }
        return output.bytes
    }

    /// The items of a row; nil when the bytes are not a row this build can read.
    static func decode(_ data: Data) -> [Item]? {
        data.withUnsafeBytes { raw -> [Item]? in
            var reader = Reader(bytes: raw)
            guard reader.byte() == version, let count = reader.count() else { return nil }
            var items: [Item] = []
            items.reserveCapacity(min(count, raw.count))
            for _ in 0..<count {
                guard let id = reader.string(), let kind = reader.string(), let title = reader.string(),
                      let subtitle = reader.optional(), let url = reader.optional(), let dated = reader.byte()
                else { return nil }
                var date: Date?
                if dated == 1 {
                    guard let bits = reader.word() else { return nil }
                    date = Date(timeIntervalSince1970: Double(bitPattern: bits))
                }
                guard case .object(let fields)? = reader.value() else { return nil }
                items.append(Item(
                    kind: ItemKind(rawValue: kind) ?? .record, id: id, title: title, subtitle: subtitle,
                    url: url.flatMap(URL.init(string:)), date: date, fields: fields))
            }
            return reader.isAtEnd ? items : nil
        }
    }

    /// Writes through the JSON writer's byte stage (a buffer on the stack, flushed in pieces).
    private struct Writer {
        var stage: JSONByteStage

        mutating func count(_ value: Int) {
            var value = UInt(value)
            while value >= 0x80 {
                stage.put(UInt8(truncatingIfNeeded: value) | 0x80)
                value >>= 7
            }
            stage.put(UInt8(value))
        }

        mutating func word(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { stage.put($0.assumingMemoryBound(to: UInt8.self)) }
        }

        mutating func string(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                count(utf8.count)
                stage.put(utf8)
            }
        }

        mutating func optional(_ value: String?) {
            guard let value else { return stage.put(0) }
            stage.put(1)
            string(value)
        }

        mutating func object(_ object: JSONObject) {
            stage.put(Tag.object.rawValue)
            count(object.count)
            for member in object.members {
                string(member.key)
                value(member.value)
            }
        }

        mutating func value(_ value: JSONValue) {
            switch value {
            case .null: stage.put(Tag.null.rawValue)
            case .bool(let flag): stage.put((flag ? Tag.trueValue : Tag.falseValue).rawValue)
            case .int(let number):
                stage.put(Tag.int.rawValue)
                word(UInt64(bitPattern: Int64(number)))
            case .double(let number):
                stage.put(Tag.double.rawValue)
                word(number.bitPattern)
            case .string(let text):
                stage.put(Tag.string.rawValue)
                string(text)
            case .array(let values):
                stage.put(Tag.array.rawValue)
                count(values.count)
                for element in values { self.value(element) }
            case .object(let members):
                object(members)
            }
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func count() -> Int? {
            var value: UInt = 0
            var shift: UInt = 0
            while let byte = byte() {
                guard shift < 63 else { return nil }
                value |= UInt(byte & 0x7F) << shift
                if byte < 0x80 { return value <= UInt(bytes.count) ? Int(value) : nil }
                shift += 7
            }
            return nil
        }

        mutating func word() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            defer { offset += 8 }
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }

        mutating func string() -> String? {
            guard let length = count(), bytes.count - offset >= length else { return nil }
            defer { offset += length }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
        }

        /// An optional string: `.some(nil)` when absent, nil when the bytes end.
        mutating func optional() -> String?? {
            switch byte() {
            case 0: return .some(nil)
            case 1: return string().map { .some($0) }
            default: return nil
            }
        }

        mutating func value() -> JSONValue? {
            guard let raw = byte(), let tag = Tag(rawValue: raw) else { return nil }
            switch tag {
            case .null: return .null
            case .falseValue: return .bool(false)
            case .trueValue: return .bool(true)
            case .int: return word().map { .int(Int(Int64(bitPattern: $0))) }
            case .double: return word().map { .double(Double(bitPattern: $0)) }
            case .string: return string().map { .string($0) }
            case .array:
                guard let count = count() else { return nil }
                var values: [JSONValue] = []
                values.reserveCapacity(count)
                for _ in 0..<count {
                    guard let element = value() else { return nil }
                    values.append(element)
                }
                return .array(values)
            case .object:
                guard let count = count() else { return nil }
                var members: [JSONObject.Member] = []
                members.reserveCapacity(count)
                for _ in 0..<count {
                    guard let key = string(), let member = value() else { return nil }
                    members.append((key, member))
                }
                return .object(JSONObject(members: members))
            }
        }
    }
}
