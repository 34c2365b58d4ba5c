/// The tool's version: what `aggregate --version` prints and what the HTTP `User-Agent` names.
public enum ToolVersion {
    public static let current = "0.9.0"
}
