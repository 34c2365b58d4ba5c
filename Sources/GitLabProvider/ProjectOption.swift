import Domain
import ProviderKit

/// A project as the manifest names it: its full path, `"namespace/project"`, with nested groups
/// (`"gitlab-org/ci-cd/runner"`). The namespace becomes the `RepositoryRef`'s owner.
struct ProjectOption: OptionValue {
    var ref: RepositoryRef

    init(option: JSONValue, path: String) throws(ManifestError) {
        guard case .string(let text) = option else { throw Self.mismatch("a \"namespace/project\" string", option, at: path) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.allSatisfy(RepositoryPath.isValidSegment) else {
            throw ManifestError(path: path, "expected \"namespace/project\" (like \"gitlab-org/gitlab\"), found '\(text)'")
        }
        ref = RepositoryRef(owner: parts.dropLast().joined(separator: "/"), name: parts[parts.count - 1])
    }
}
