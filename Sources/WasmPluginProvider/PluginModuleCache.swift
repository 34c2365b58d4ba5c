import Crypto
import Foundation
import Synchronization
@_spi(Fuzzing) import WasmKit

/// A parsed module and the digest of the bytes it was parsed from.
public struct LoadedPluginModule: Sendable {
    public var module: Module
    /// SHA-256 of the file, hex: part of each of the plugin's sources' stored identity.
    public var digest: String
}

/// The process's parsed modules, one per file, parsed again when the file changes (its size, modification time
/// or, should those lie, bytes).
///
/// Parsing happens outside the lock: two sources asking for a changed file at once may both parse it, and the
/// later one's result is kept; neither waits for the other.
public final class PluginModuleCache: Sendable {
    private struct Entry: Sendable {
        var size: Int
        var modified: Date
        var loaded: LoadedPluginModule
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The one cache of the process (every container's plugins share it).
    public static let shared = PluginModuleCache()

    public init() {}

    /// The module at `url`, parsed now or earlier.
    public func module(at url: URL) throws(PluginFailure) -> LoadedPluginModule {
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw .moduleUnreadable("\(path): \(exists ? "cannot be read" : "no such file")")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? -1
        let modified = attributes[.modificationDate] as? Date ?? .distantPast
        let cached = entries.withLock { $0[path] }
        if let cached, cached.size == size, cached.modified == modified { return cached.loaded }

        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: url))
        } catch {
            throw .moduleUnreadable("\(path): cannot be read")
        }
        let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        if let cached, cached.loaded.digest == digest {
            entries.withLock { $0[path] = Entry(size: size, modified: modified, loaded: cached.loaded) }
            return cached.loaded
        }
        let module: Module
        do {
            module = try parseWasm(bytes: bytes)
        } catch {
            throw .invalidModule("\(url.lastPathComponent): \(error)")
        }
        let loaded = LoadedPluginModule(module: module, digest: digest)
        entries.withLock { $0[path] = Entry(size: size, modified: modified, loaded: loaded) }
        return loaded
    }

    /// The digest of the module at `url` as the cache knows it, parsing it if needed; nil when it cannot be read.
    public func digest(at url: URL) -> String? {
        try? module(at: url).digest
    }
}
