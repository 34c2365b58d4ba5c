/// A source's latest item ids, in order, as one buffer: each id's UTF-8 after its length (LEB128). Half a million
/// ids are ten thousand buffers, not half a million strings.
struct PackedItemIDs: Sendable, Hashable {
    private var bytes: [UInt8] = []
    private(set) var count = 0

    init(_ ids: [String]) {
        bytes.reserveCapacity(ids.reduce(0) { $0 + $1.utf8.count + 1 })
        for id in ids {
            var length = id.utf8.count
            repeat {
                let low = UInt8(length & 0x7f)
                length >>= 7
                bytes.append(length == 0 ? low : low | 0x80)
            } while length != 0
            bytes.append(contentsOf: id.utf8)
        }
        count = ids.count
    }

    var ids: [String] {
        var result: [String] = []
        result.reserveCapacity(count)
        var index = 0
        while index < bytes.count {
            var length = 0
            var shift = 0
            while true {
                let byte = bytes[index]
                index += 1
                length |= Int(byte & 0x7f) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            result.append(String(decoding: bytes[index..<index + length], as: UTF8.self))
            index += length
        }
        return result
    }
}
