import Foundation

/// The names a new provider is known by, derived from one human name ("Tech Digest").
///
/// The human name may hold ASCII letters, digits and spaces and must start with a letter. Each word's first
/// letter is upper-cased to make the type names (`TechDigest`, `TechDigestProvider`); the words lower-cased
/// and joined by hyphens make the manifest's `"provider"` value (`tech-digest`). A trailing word "Provider"
/// is dropped, so "Tech Digest Provider" does not become `TechDigestProviderProvider`.
public struct ProviderName: Sendable, Hashable {
    /// `TechDigest`: the prefix of every generated type.
    public let typeName: String
    /// `tech-digest`: what manifests put in `"provider"`.
    public let providerName: String
    /// The name as the user gave it, trimmed ("Tech Digest"), for doc comments.
    public let displayName: String

    public static let maximumLength = 40

    /// - Parameter providerName: overrides the derived manifest name; must be lowercase words joined by hyphens.
    public init(_ raw: String, providerName: String? = nil) throws(ScaffoldError) {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidName(raw, "it is empty") }
        guard trimmed.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == " " || Self.isAlphanumeric($0)) }) else {
            throw .invalidName(raw, "use only letters (A–Z), digits and spaces")
        }
        guard let first = trimmed.unicodeScalars.first, Self.isLetter(first) else {
            throw .invalidName(raw, "it must start with a letter")
        }
        var words = trimmed.split(separator: " ").map(String.init)
        if words.count > 1, words.last?.lowercased() == "provider" { words.removeLast() }
        let typeName = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        guard typeName.count <= Self.maximumLength else {
            throw .invalidName(raw, "keep it to \(Self.maximumLength) characters or fewer")
        }
        guard !Self.reservedTypeNames.contains(typeName) else {
            throw .invalidName(raw, "'\(typeName)' is already a name in this package; choose another")
        }
        let derived = words.map { $0.lowercased() }.joined(separator: "-")
        if let providerName {
            guard Self.isValidProviderName(providerName) else {
                throw .invalidProviderName(providerName)
            }
            self.providerName = providerName
        } else {
            self.providerName = derived
        }
        self.typeName = typeName
        self.displayName = words.joined(separator: " ")
    }

    /// `TechDigestProvider`: the source target, its folder and the `Provider` type.
    public var targetName: String { typeName + "Provider" }

    /// `TechDigestProviderTests`.
    public var testTargetName: String { targetName + "Tests" }

    /// `TECH_DIGEST_API_KEY`: the environment variable the manifest example reads the key from.
    public var apiKeyVariable: String {
        providerName.uppercased().replacingOccurrences(of: "-", with: "_") + "_API_KEY"
    }

    /// Lowercase words of letters and digits joined by single hyphens, starting with a letter: `tech-digest`.
    public static func isValidProviderName(_ name: String) -> Bool {
        let words = name.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.count <= maximumLength else {
            return false
        }
        return words.allSatisfy { word in
            !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    /// Module and type names the package already uses: a provider named after one would not compile or
    /// would shadow it.
    static let reservedTypeNames: Set<String> = [
        "Domain", "ProviderKit", "HTTPClient", "App", "Presentation", "ProviderTesting", "ProviderScaffold",
        "Files", "Exec", "Foundation", "Dispatch", "Testing", "Logging", "Test", "Aggregate",
    ]

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || ("0"..."9").contains(scalar)
    }
}
