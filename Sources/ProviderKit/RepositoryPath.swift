/// Path segments of repositories on the issue trackers (GitHub `owner/name`, GitLab `group/sub/project`).
public enum RepositoryPath {
    /// Letters, digits, `-`, `_`, `.`; never `.` or `..` alone (they would walk the URL's path).
    public static func isValidSegment(_ segment: String) -> Bool {
        !segment.isEmpty && segment != "." && segment != ".."
            && segment.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            }
    }
}
