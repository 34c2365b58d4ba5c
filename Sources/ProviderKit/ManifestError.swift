import Foundation

/// One thing wrong with a manifest, at a JSON path: `sources[1].options.cities: expected an array of strings`.
public struct ManifestProblem: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// Every problem found in a manifest (never just the first), so one edit fixes them all.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    public var problems: [ManifestProblem]

    public init(_ problems: [ManifestProblem]) {
        self.problems = problems
    }

    public init(path: String, _ message: String) {
        self.problems = [ManifestProblem(path: path, message: message)]
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

/// "Did you mean …?" for a mistyped key or name: the closest candidate within a small edit distance.
public enum Suggestion {
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
