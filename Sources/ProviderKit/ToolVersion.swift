/// The tool's version: what `aggregate --version` prints and what the HTTP `User-Agent` names.
public enum ToolVersion {
    /// `MAJOR.MINOR.PATCH`: the release this build is (CHANGELOG.md names what each release promises).
    public static let current = "0.10.0"
}
