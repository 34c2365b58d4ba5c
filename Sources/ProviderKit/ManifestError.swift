import Foundation

/// One thing wrong with a manifest, at a JSON path: `sources[1].options.cities: expected an array of strings`.
public struct ManifestProblem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value (`sources[1].options.cities[0]`); empty for the manifest as a whole.
    public var path: String
    /// What is wrong and, where it helps, what would be right.
    public var message: String

    /// A problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`, or the message alone when the path is empty.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in a manifest (never just the first), so one edit fixes them all.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problems in the order they were found; never empty when thrown.
    public var problems: [ManifestProblem]

    /// All of `problems`, as one error.
    public init(_ problems: [ManifestProblem]) {
        self.problems = problems
    }

    /// One problem at `path`.
    public init(path: String, _ message: String) {
        self.problems = [ManifestProblem(path: path, message: message)]
    }

    /// Every problem on a line of its own, `path: message`.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// "Did you mean …?" for a mistyped key or name: the closest candidate within a small edit distance.
public enum Suggestion {
    /// The candidate `word` most likely meant, ignoring case: one it is a prefix of or that is a prefix of it (three
    /// letters or more), else the nearest within an edit distance of two or a third of the word; nil when none is that close.
    public static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        // A shortened or extended name ("timeout" for "timeoutSeconds") is a likely slip whatever its distance.
        if lowered.count >= 3, let prefixed = candidates.first(where: {
            let candidate = $0.lowercased()
            return candidate.hasPrefix(lowered) || lowered.hasPrefix(candidate)
        }) {
            return prefixed
        }
        let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// ` (did you mean 'x'?)` for ``closest(to:in:)``'s answer, or an empty string: append it to a problem's message.
    public static func didYouMean(_ word: String, in candidates: [String]) -> String {
        closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
