import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Shell-style file patterns (`data/*.csv`, `logs/2026-??.ndjson`) expanded by the C library's `glob(3)`.
public enum Glob {
    /// Matching regular files, sorted, for one pattern. A pattern without wildcards is returned as is
    /// (even when missing), so the reader can report "no such file" with its name.
    public static func expand(_ pattern: URL) -> [URL] {
        let path = pattern.path
        guard path.utf8.contains(where: { $0 == 0x2A || $0 == 0x3F || $0 == 0x5B }) else { return [pattern] }  // * ? [
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(path, 0, nil, &result) == 0 else { return [] }
        var urls: [URL] = []
        for index in 0..<Int(result.gl_pathc) {
            if let cString = result.gl_pathv[index] {
                let match = String(cString: cString)
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: match, isDirectory: &isDirectory), !isDirectory.boolValue {
                    urls.append(URL(filePath: match, directoryHint: .notDirectory))
                }
            }
        }
        return urls.sorted { $0.path < $1.path }
    }
}
