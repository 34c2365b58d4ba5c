import Domain
import Foundation
import ProviderKit

extension Provider {
    /// The problems `makeSource` refuses `configuration` with, each with its JSON path; empty when it builds a
    /// source. What a provider's option tests compare.
    public func optionProblems(_ configuration: SourceConfiguration) -> [ManifestProblem] {
        do throws(ManifestError) {
            _ = try makeSource(configuration)
            return []
        } catch {
            return error.problems
        }
    }

    /// The problems of a manifest entry's `options` (and `--query`), configured as the manifest loader would.
    public func optionProblems(_ options: JSONValue, query: String? = nil) -> [ManifestProblem] {
        optionProblems(.testing(options: options, query: query))
    }
}
