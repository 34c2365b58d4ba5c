import Domain
import ProviderKit

/// A repository as the manifest names it: `"owner/name"`.
struct RepositoryOption: OptionValue {
    var ref: RepositoryRef

    init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .string(let text) = option else { throw Self.mismatch("an \"owner/name\" string", option, at: path) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, parts.allSatisfy(RepositoryPath.isValidSegment) else {
            throw ManifestError(path: path, "expected \"owner/name\" (like \"apple/swift\"), found '\(text)'")
        }
        ref = RepositoryRef(owner: parts[0], name: parts[1])
    }
}
