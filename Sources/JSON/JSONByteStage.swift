/// Where `JSONWriter` writes a value's pieces (keys, strings, numbers, punctuation): copied into a fixed buffer,
/// which goes to the writer's bytes in one append when it is full and when the value is done.
///
/// A piece costs a bounds check and a copy, not an `Array.append(contentsOf:)` (what that cost: BENCHMARKS.md,
/// "The JSON writer through a stage"). Lives only inside `JSONWriter.staged`, which owns the buffer and takes the
/// bytes back.
package struct JSONByteStage {
    /// The writer's bytes while the stage has them.
    var out: [UInt8] = []
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    /// The buffer's size: room for one escaped piece (`escapePiece` bytes, each up to six) with space to spare.
    /// At most 1 KiB, so `JSONWriter.staged` always gets it on the stack: a writer made for a few bytes (a cell's
    /// compact JSON, an item's fingerprint) pays no allocation for it. A line of NDJSON still reaches the writer's
    /// bytes in one append; a larger value in 1 KiB appends, or directly when it is a long run.
    static let capacity = 1024
    /// How much of a string is escaped at a time.
    static let escapePiece = 128
    /// A run at least this long is appended to `out` directly instead of being copied through the buffer.
    private static let directRun = 256

    init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= JSONStringEscaping.maxEscapedLength(Self.escapePiece))
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// Hands what the buffer holds to `out`.
    mutating func flush() {
        guard count > 0 else { return }
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    @inline(__always)
    private mutating func makeRoom(_ needed: Int) {
        if count + needed > capacity { flush() }
    }

    @inline(__always)
    package mutating func put(_ byte: UInt8) {
        makeRoom(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    package mutating func put(_ piece: UnsafeBufferPointer<UInt8>) {
        guard piece.count < Self.directRun else {
            flush()
            out.append(contentsOf: piece)
            return
        }
        makeRoom(piece.count)
        (base + count).update(from: piece.baseAddress!, count: piece.count)
        count += piece.count
    }

    @inline(__always)
    package mutating func put(_ literal: StaticString) {
        literal.withUTF8Buffer { put($0) }
    }

    /// `utf8` escaped (`JSONStringEscaping`), quotes not included. Most strings are short and need no escaping:
    /// those are checked and copied in one pass.
    mutating func putEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start: Int
        if utf8.count < Self.directRun {
            makeRoom(utf8.count)
            start = JSONStringEscaping.copyUntilEscape(utf8, into: base + count)
            count += start
        } else {
            start = JSONStringEscaping.firstEscape(utf8) ?? utf8.count
            put(UnsafeBufferPointer(rebasing: utf8[..<start]))
        }
        while start < utf8.count {
            let piece = UnsafeBufferPointer(rebasing: utf8[start..<min(utf8.count, start + Self.escapePiece)])
            makeRoom(JSONStringEscaping.maxEscapedLength(piece.count))
            count += JSONStringEscaping.escape(piece, into: base + count)
            start += piece.count
        }
    }
}
