import Domain
import Foundation

/// Why a plugin run failed, in the plugin's terms; `sourceError` is what its source reports.
///
/// Every case is the plugin's own doing or its module's, never the host's: the process and the other sources go on.
public enum PluginFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The module file cannot be read.
    case moduleUnreadable(String)
    /// The file is not a valid WebAssembly module, or lacks an export ABI v1 needs, or imports what the host lacks.
    case invalidModule(String)
    /// The guest trapped (`unreachable`, an out-of-bounds access of its own memory, a division by zero …).
    case trap(String)
    /// It used up its fuel (`plugins[].fuel`).
    case outOfFuel(UInt64)
    /// Its memory hit `plugins[].memoryPages` and it did not cope.
    case memoryLimit(pages: Int)
    /// It handed the host a pointer and length outside its memory.
    case badPointer(function: String, pointer: UInt32, length: UInt32, memoryBytes: Int)
    /// It handed the host something that is not what ABI v1 says (not JSON, a wrong shape, a bad return).
    case protocolViolation(String)
    /// It wrote more than the source's `maxOutputBytes` through `emit` and `log`.
    case outputCap(Int)
    /// It asked for a host that is not in `allowedHosts`.
    case hostNotAllowed(String)
    /// It asked for a credential the source does not define.
    case unknownCredential(String)
    /// It returned non-zero without emitting an error.
    case failed(code: Int32)
    /// It emitted an error message (and then returned non-zero, or went on and finished).
    case reported(SourceError.Kind, String)
    /// The source's time ran out (or the run was cancelled) while it ran.
    case timedOut

    public var description: String {
        switch self {
        case .moduleUnreadable(let reason): "module cannot be read: \(reason)"
        case .invalidModule(let reason): "invalid module: \(reason)"
        case .trap(let reason): "trapped: \(reason)"
        case .outOfFuel(let fuel): "ran out of fuel (\(fuel) operators; plugins[].fuel)"
        case .memoryLimit(let pages): "memory limit reached (\(pages) pages of 64 KiB; plugins[].memoryPages)"
        case .badPointer(let function, let pointer, let length, let memoryBytes):
            "\(function) was given \(length) bytes at \(pointer), outside its \(memoryBytes)-byte memory"
        case .protocolViolation(let reason): "broke ABI v1: \(reason)"
        case .outputCap(let cap): "wrote more than \(cap) bytes (maxOutputBytes)"
        case .hostNotAllowed(let host): "request to '\(host)' refused: not in the plugin's allowedHosts"
        case .unknownCredential(let name): "asked for credential '\(name)', which the source's options.credentials does not define"
        case .failed(let code): "returned \(code) without emitting an error"
        case .reported(_, let message): message
        case .timedOut: "stopped: the source's time ran out"
        }
    }

    /// The source's error, naming the plugin.
    public func sourceError(plugin: String) -> SourceError {
        let kind: SourceError.Kind = switch self {
        case .moduleUnreadable: .io
        case .invalidModule, .hostNotAllowed, .unknownCredential: .configuration
        case .timedOut: .timeout
        case .reported(let kind, _): kind
        default: .badResponse
        }
        return SourceError(kind, "plugin '\(plugin)': \(description)")
    }
}
