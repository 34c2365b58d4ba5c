import Foundation
@_spi(Fuzzing) import WasmKit

/// ABI v1's imports: module `aggregate_v1` (docs/PLUGINS.md) and the part of WASI preview 1 a plugin gets: clocks
/// and random. Every other WASI function answers `ENOTCAPABLE` (no files, environment, arguments or sockets).
extension PluginRun {
    static let abiModule = "aggregate_v1"
    static let wasiModule = "wasi_snapshot_preview1"
    /// WASI's errno values the host answers with.
    static let errnoSuccess: UInt32 = 0, errnoBadFileDescriptor: UInt32 = 8, errnoInvalid: UInt32 = 28,
        errnoNotCapable: UInt32 = 76

    /// What a guest's `proc_exit` throws to leave the run.
    struct ProcessExit: Error {
        var code: UInt32
    }

    /// The functions the module imports, each the host's or a refusing WASI stub; a module importing anything else
    /// (another module, a memory, a table, a global) cannot be used.
    func makeImports(for module: Module, store: Store) throws(PluginFailure) -> Imports {
        var imports = Imports()
        for entry in module.imports {
            let name = "\(entry.module).\(entry.name)"
            guard case .function(let typeIndex) = entry.descriptor else {
                throw .invalidModule("it imports \(name), which is not a function; the host provides functions only")
            }
            if let function = hostFunction(module: entry.module, name: entry.name, store: store) {
                imports.define(module: entry.module, name: entry.name, function)
            } else if entry.module == Self.wasiModule, let type = module.functionType(at: typeIndex),
                      type.results == [.i32] || type.results.isEmpty {
                let results: [Value] = type.results.isEmpty ? [] : [.i32(Self.errnoNotCapable)]
                imports.define(module: entry.module, name: entry.name, Function(store: store, type: type) { _, _ in results })
            } else {
                throw .invalidModule("it imports \(name), which the host does not provide (ABI v1: docs/PLUGINS.md)")
            }
        }
        return imports
    }

    private func hostFunction(module: String, name: String, store: Store) -> Function? {
        switch (module, name) {
        case (Self.abiModule, "emit"):
            return Function(store: store, parameters: [.i32, .i32]) { [unowned self] _, args in
                try self.emit(pointer: args[0].u32, length: args[1].u32)
                return []
            }
        case (Self.abiModule, "log"):
            return Function(store: store, parameters: [.i32, .i32, .i32]) { [unowned self] _, args in
                try self.log(level: args[0].u32, pointer: args[1].u32, length: args[2].u32)
                return []
            }
        case (Self.abiModule, "http_request"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                [.i32(try self.httpRequest(pointer: args[0].u32, length: args[1].u32))]
            }
        case (Self.abiModule, "result_read"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                [.i32(try self.resultRead(pointer: args[0].u32, length: args[1].u32))]
            }
        case (Self.abiModule, "state_get"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                [.i32(try self.stateGet(pointer: args[0].u32, length: args[1].u32))]
            }
        case (Self.abiModule, "state_set"):
            return Function(store: store, parameters: [.i32, .i32, .i32, .i32]) { [unowned self] _, args in
                try self.stateSet(keyPointer: args[0].u32, keyLength: args[1].u32, valuePointer: args[2].u32, valueLength: args[3].u32)
                return []
            }
        case (Self.wasiModule, "clock_time_get"):
            return Function(store: store, parameters: [.i32, .i64, .i32], results: [.i32]) { [unowned self] _, args in
                guard let nanoseconds = Self.clock(args[0].u32) else { return [.i32(Self.errnoInvalid)] }
                try self.guestMemory().write(Self.littleEndian(nanoseconds), at: args[2].u32, function: "clock_time_get")
                return [.i32(Self.errnoSuccess)]
            }
        case (Self.wasiModule, "clock_res_get"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                guard Self.clock(args[0].u32) != nil else { return [.i32(Self.errnoInvalid)] }
                try self.guestMemory().write(Self.littleEndian(UInt64(1_000)), at: args[1].u32, function: "clock_res_get")
                return [.i32(Self.errnoSuccess)]
            }
        case (Self.wasiModule, "random_get"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                let memory = try self.guestMemory()
                guard memory.contains(pointer: args[0].u32, length: args[1].u32) else {
                    throw PluginFailure.badPointer(
                        function: "random_get", pointer: args[0].u32, length: args[1].u32, memoryBytes: memory.memory.byteCount)
                }
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<args[1].u32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                try memory.write(bytes, at: args[0].u32, function: "random_get")
                return [.i32(Self.errnoSuccess)]
            }
        case (Self.wasiModule, "args_sizes_get"), (Self.wasiModule, "environ_sizes_get"):
            // No arguments and no environment: two zero counts.
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { [unowned self] _, args in
                let memory = try self.guestMemory()
                try memory.write([0, 0, 0, 0], at: args[0].u32, function: name)
                try memory.write([0, 0, 0, 0], at: args[1].u32, function: name)
                return [.i32(Self.errnoSuccess)]
            }
        case (Self.wasiModule, "args_get"), (Self.wasiModule, "environ_get"):
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { _, _ in [.i32(Self.errnoSuccess)] }
        case (Self.wasiModule, "fd_prestat_get"):
            // No directory is open to the plugin: libc's scan of preopened directories ends at the first answer.
            return Function(store: store, parameters: [.i32, .i32], results: [.i32]) { _, _ in [.i32(Self.errnoBadFileDescriptor)] }
        case (Self.wasiModule, "proc_exit"):
            return Function(store: store, parameters: [.i32]) { _, args in throw ProcessExit(code: args[0].u32) }
        default:
            return nil
        }
    }

    /// Nanoseconds of WASI clock `id`: 0 realtime, 1 monotonic; the CPU-time clocks are not offered.
    private static func clock(_ id: UInt32) -> UInt64? {
        switch id {
        case 0: UInt64(max(0, Date().timeIntervalSince1970 * 1e9))
        case 1: DispatchTime.now().uptimeNanoseconds
        default: nil
        }
    }

    private static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

extension Value {
    /// An i32 argument's bits (the host's functions are declared with i32 parameters, so WasmKit checked the type).
    var u32: UInt32 {
        if case .i32(let value) = self { return value }
        return 0
    }
}
