import WasmKit

/// Reads and writes of a guest's memory, every pointer and length checked first: WasmKit's own accessors stop the
/// whole process on an out-of-bounds access, so nothing reaches them unchecked.
struct CheckedGuestMemory {
    let memory: Memory

    /// Whether `length` bytes at `pointer` lie inside the memory as it is now (it may have grown since the last call).
    func contains(pointer: UInt32, length: UInt32) -> Bool {
        UInt64(pointer) + UInt64(length) <= UInt64(memory.byteCount)
    }

    /// The bytes, copied out; `function` names the import that was given them, for the error.
    func read(pointer: UInt32, length: UInt32, function: String) throws(PluginFailure) -> [UInt8] {
        guard contains(pointer: pointer, length: length) else {
            throw .badPointer(function: function, pointer: pointer, length: length, memoryBytes: memory.byteCount)
        }
        guard length > 0 else { return [] }
        return memory.withUnsafeBufferPointer(offset: UInt(pointer), count: Int(length)) { Array($0) }
    }

    func write(_ bytes: [UInt8], at pointer: UInt32, function: String) throws(PluginFailure) {
        let length = UInt32(clamping: bytes.count)
        guard bytes.count <= Int(UInt32.max), contains(pointer: pointer, length: length) else {
            throw .badPointer(function: function, pointer: pointer, length: length, memoryBytes: memory.byteCount)
        }
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { source in
            memory.withUnsafeMutableBufferPointer(offset: UInt(pointer), count: source.count) { $0.copyMemory(from: source) }
        }
    }
}
