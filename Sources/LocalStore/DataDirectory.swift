import Foundation

/// Where `aggregate` keeps what it remembers between runs (recent search queries):
/// `$AGGREGATE_HOME`, else `$XDG_DATA_HOME/aggregate`, else `~/.local/share/aggregate`.
public enum DataDirectory {
    /// Resolves the directory from `environment` without touching the disk (it is created on first write).
    public static func url(environment: [String: String]) -> URL {
        if let home = nonEmpty(environment["AGGREGATE_HOME"]) {
            return URL(fileURLWithPath: (home as NSString).expandingTildeInPath).standardizedFileURL
        }
        // The XDG spec says a relative value is invalid and must be ignored.
        if let xdg = nonEmpty(environment["XDG_DATA_HOME"]), xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("aggregate").standardizedFileURL
        }
        let home = nonEmpty(environment["HOME"]).map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/aggregate").standardizedFileURL
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
