import Domain
import Foundation

/// `urls` and `paths`: where a source's documents are read from, as the feed and html providers take them.
/// Shared, so a manifest names feeds and pages the same way and gets the same problems for the same mistakes.
public enum DocumentLocations {
    /// The two options' specs; `noun` names what is read ("feed", "page").
    public static func specs(_ noun: String, plural: String) -> [OptionSpec] {
        [
            OptionSpec("urls", "array of strings (http/https URLs)",
                       help: "\(plural.prefix(1).uppercased() + plural.dropFirst()) to fetch. At least one of urls and paths is required."),
            OptionSpec("paths", "array of strings",
                       identity: .local,
                       help: "Local \(noun) files or glob patterns (*, ?, [abc]), relative to the manifest's directory."),
        ]
    }

    /// Reads both options, recording a problem at its path for each bad entry and when neither names anything.
    /// URLs come first, then each pattern's matches (sorted); a pattern that matches nothing stays, so the run
    /// reports it by name instead of dropping it.
    public static func read(_ reader: OptionsReader, noun: String) -> [FeedLocation] {
        let urls = reader.value("urls", as: [String].self) ?? []
        let paths = reader.value("paths", as: [String].self) ?? []
        if !reader.has("urls") && !reader.has("paths") {
            reader.problem(nil, "name at least one \(noun) in 'urls' or 'paths'")
        } else if urls.isEmpty && paths.isEmpty && reader.has("urls") == reader.has("paths") {
            reader.problem(nil, "'urls' and 'paths' are both empty; name at least one \(noun)")
        }
        var locations: [FeedLocation] = []
        for (index, text) in urls.enumerated() {
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
               url.host?.isEmpty == false {
                locations.append(.url(url))
            } else {
                reader.problem("urls[\(index)]", "expected an http:// or https:// URL, found '\(text)'")
            }
        }
        for (index, pattern) in paths.enumerated() {
            guard !pattern.unicodeScalars.allSatisfy(CharacterSet.whitespaces.contains) else {
                reader.problem("paths[\(index)]", "a path cannot be empty")
                continue
            }
            let resolved = reader.resolvePath(pattern)
            let matches = Glob.expand(resolved)
            locations += (matches.isEmpty ? [resolved] : matches).map(FeedLocation.file)
        }
        return locations
    }

    /// The `tags` option's spec; `help` says where the labels come from.
    public static func tagsSpec(help: String) -> OptionSpec {
        OptionSpec("tags", "array of strings", default: "[]", identity: .tuning,
                   help: "Labels every item of the source carries as fields.tags" + help)
    }

    /// `tags`: the labels every item of the source carries (`fields.tags`); an empty one is a problem.
    public static func readTags(_ reader: OptionsReader) -> [String] {
        let tags = reader.value("tags", as: [String].self) ?? []
        for (index, tag) in tags.enumerated() where tag.trimmingCharacters(in: .whitespaces).isEmpty {
            reader.problem("tags[\(index)]", "a tag cannot be empty")
        }
        return tags
    }

    /// The fetched URLs among `locations`, for the HTTP options' checks.
    public static func urls(in locations: [FeedLocation]) -> [URL] {
        locations.compactMap { location in
            if case .url(let url) = location { return url }
            return nil
        }
    }
}
