import Domain
import Foundation
import ProviderKit
import Synchronization

/// Where plugin sources keep their key-value state between runs (cursors, ETags): one small map per plugin and
/// source id.
public protocol PluginStateStoring: Sendable {
    /// The state the last successful run of the source left; empty when there is none.
    func load(plugin: String, source: String) -> [String: String]
    /// Replaces the source's state. Called after a successful run only, so a failed run never moves a cursor.
    func save(_ state: [String: String], plugin: String, source: String)
}

/// The `ProviderServices` key of the plugin state store.
public enum PluginStateStoreKey: ProviderServiceKey {
    public typealias Value = any PluginStateStoring
}

/// A JSON file per plugin and source under `directory` (`<plugin>/<source>.json`), written whole to a temporary
/// file and renamed, so a crash leaves the old state or the new one.
public struct FilePluginStateStore: PluginStateStoring {
    private let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    private func file(plugin: String, source: String) -> URL {
        directory.appendingPathComponent(plugin, isDirectory: true).appendingPathComponent("\(source).json")
    }

    public func load(plugin: String, source: String) -> [String: String] {
        guard let data = try? Data(contentsOf: file(plugin: plugin, source: source)),
              case .object(let object)? = try? JSONValue.parse(data) else { return [:] }
        var state: [String: String] = [:]
        for (key, value) in object { if let text = value.stringValue { state[key] = text } }
        return state
    }

    public func save(_ state: [String: String], plugin: String, source: String) {
        let target = file(plugin: plugin, source: source)
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        for (key, value) in state.sorted(by: { $0.key < $1.key }) {
            writer.key(key)
            writer.string(value)
        }
        writer.endObject()
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(writer.bytes).write(to: target, options: .atomic)
    }
}

/// A process's memory as the store: what tests and a run without a data directory use.
public final class InMemoryPluginStateStore: PluginStateStoring {
    private let states = Mutex<[String: [String: String]]>([:])

    public init() {}

    public func load(plugin: String, source: String) -> [String: String] {
        states.withLock { $0["\(plugin)/\(source)"] ?? [:] }
    }

    public func save(_ state: [String: String], plugin: String, source: String) {
        states.withLock { $0["\(plugin)/\(source)"] = state }
    }
}

/// One run's state, read at its start and changed by `state_set`; bounded so a plugin cannot fill the disk.
final class PluginState {
    static let maxKeyBytes = 256
    static let maxValueBytes = 64 << 10
    static let maxEntries = 64

    private(set) var values: [String: String]
    private(set) var changed = false

    init(_ values: [String: String]) {
        self.values = values
    }

    func value(for key: String) -> String? { values[key] }

    func set(_ key: String, _ value: String) throws(PluginFailure) {
        guard !key.isEmpty, key.utf8.count <= Self.maxKeyBytes else {
            throw .protocolViolation("state_set: a key must be 1 to \(Self.maxKeyBytes) bytes")
        }
        guard value.utf8.count <= Self.maxValueBytes else {
            throw .protocolViolation("state_set: a value must be at most \(Self.maxValueBytes) bytes")
        }
        guard values[key] != nil || values.count < Self.maxEntries else {
            throw .protocolViolation("state_set: at most \(Self.maxEntries) keys")
        }
        values[key] = value
        changed = true
    }
}
