import Foundation

/// Where tests keep their temporary files and directories: one directory per test process,
/// `<tmp>/aggregate-tests-<pid>`, removed when the process exits. A test that makes a manifest, a store or a home
/// directory for a spawned binary does not have to remove it itself, and a run of the suite leaves nothing in `/tmp`.
/// A directory left by a process that died before it could remove its own is removed by the next test process.
public enum ScratchDirectory {
    private static let prefix = "aggregate-tests-"

    /// One test's own directory under the root, with writers: `let directory = try ScratchDirectory.Folder("store")`,
    /// then `directory.write("data/a.csv", "…")`.
    public struct Folder: Sendable {
        /// The directory, made when the value was.
        public let url: URL

        /// A new, empty directory under the root: `name-<UUID>`.
        public init(_ name: String = "test") throws {
            url = try ScratchDirectory.make(name)
        }

        /// Writes `text` (UTF-8) at `path` relative to the directory, making folders; returns the file's URL.
        @discardableResult
        public func write(_ path: String, _ text: String) throws -> URL {
            try write(path, Data(text.utf8))
        }

        /// Writes `data` at `path` relative to the directory, making folders; returns the file's URL.
        @discardableResult
        public func write(_ path: String, _ data: Data) throws -> URL {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
            return file
        }
    }

    /// This process's directory, made (and its removal at exit arranged) on first use.
    public static let root: URL = {
        removeAbandoned()
        let url = directory(of: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchDirectory.directory(of: getpid())) }
        return url
    }()

    /// A new path under the root, not yet made: `name-<UUID><suffix>`.
    public static func path(_ name: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(name)-\(UUID().uuidString)\(suffix)")
    }

    /// A new, empty directory under the root: `name-<UUID>`.
    public static func make(_ name: String) throws -> URL {
        let url = path(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private static func directory(of pid: pid_t) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(pid)")
    }

    /// Removes the directories of test processes that no longer run.
    private static func removeAbandoned() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
            }
        }
    }
}
