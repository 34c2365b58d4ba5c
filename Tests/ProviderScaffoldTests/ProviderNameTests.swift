import ProviderScaffold
import Testing

@Suite("Provider names")
struct ProviderNameTests {
    @Test("words become an UpperCamelCase type prefix and a lowercase-hyphen provider name", arguments: [
        ("Tech Digest", "TechDigest", "tech-digest"),
        ("  tech   digest ", "TechDigest", "tech-digest"),
        ("GitHub", "GitHub", "github"),
        ("Tech Digest Provider", "TechDigest", "tech-digest"),
        ("open library 2", "OpenLibrary2", "open-library-2"),
    ])
    func derived(raw: String, typeName: String, providerName: String) throws {
        let name = try ProviderName(raw)
        #expect(name.typeName == typeName)
        #expect(name.providerName == providerName)
        #expect(name.targetName == typeName + "Provider")
        #expect(name.testTargetName == typeName + "ProviderTests")
    }

    @Test("names that cannot make Swift types are refused with the reason", arguments: [
        ("", "empty"), ("2fast", "start with a letter"), ("Tech-Digest", "letters"), ("Café", "letters"),
        ("Domain", "already a name"), (String(repeating: "a", count: 41), "40 characters"),
    ])
    func refused(raw: String, reason: String) {
        #expect {
            _ = try ProviderName(raw)
        } throws: { error in
            (error as? ScaffoldError)?.description.contains(reason) == true
        }
    }

    @Test("a chosen provider name must be lowercase words joined by hyphens")
    func providerNameOverride() throws {
        #expect(try ProviderName("Tech Digest", providerName: "hn").providerName == "hn")
        #expect(throws: ScaffoldError.invalidProviderName("Tech-Digest")) { try ProviderName("Tech Digest", providerName: "Tech-Digest") }
        #expect(throws: ScaffoldError.invalidProviderName("tech--digest")) { try ProviderName("Tech Digest", providerName: "tech--digest") }
        #expect(try ProviderName("Tech Digest").apiKeyVariable == "TECH_DIGEST_API_KEY")
    }

    @Test("capabilities are parsed case-insensitively and unknown ones list the choices")
    func capabilities() throws {
        #expect(try Capability(parsing: "Records") == .records)
        #expect {
            _ = try Capability(parsing: "tweets")
        } throws: { error in
            (error as? ScaffoldError)?.description.contains("records, weather, issues, movies, feed") == true
        }
    }
}
