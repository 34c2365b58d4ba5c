import Foundation

/// Where `aggregate` keeps its data: `$AGGREGATE_HOME`, else `$XDG_DATA_HOME/aggregate`, else
/// `~/.local/share/aggregate`. The one place that decides it; everything that stores anything asks here.
public struct DataDirectory: Sendable, Hashable {
    public let url: URL

    public init(url: URL) {
        self.url = url.standardizedFileURL
    }

    /// Resolves the directory from the environment (empty variables count as unset; `XDG_DATA_HOME` must be
    /// absolute, as the XDG spec says, or it is ignored).
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        home: URL = FileManager.default.homeDirectoryForCurrentUser
    ) -> DataDirectory {
        if let path = environment["AGGREGATE_HOME"], !path.isEmpty {
            return DataDirectory(url: URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true))
        }
        if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
            return DataDirectory(url: URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent("aggregate"))
        }
        return DataDirectory(url: home.appendingPathComponent(".local/share/aggregate", isDirectory: true))
    }

    /// The SQLite database: response cache, last good copies, item history, recent queries.
    public var databaseURL: URL { url.appendingPathComponent("aggregate.sqlite") }
}
