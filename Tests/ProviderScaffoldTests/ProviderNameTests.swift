import ProviderScaffold
import Testing

@Suite("Provider names")
struct ProviderNameTests {
    @Test("words become an UpperCamelCase type prefix and a lowercase-hyphen provider name", arguments: [
        ("Hacker News", "HackerNews", "hacker-news"),
        ("  hacker   news ", "HackerNews", "hacker-news"),
        ("GitHub", "GitHub", "github"),
        ("Hacker News Provider", "HackerNews", "hacker-news"),
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
        ("", "empty"), ("2fast", "start with a letter"), ("Hacker-News", "letters"), ("Café", "letters"),
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
        #expect(try ProviderName("Hacker News", providerName: "hn").providerName == "hn")
        #expect(throws: ScaffoldError.invalidProviderName("Hacker-News")) { try ProviderName("Hacker News", providerName: "Hacker-News") }
        #expect(throws: ScaffoldError.invalidProviderName("hacker--news")) { try ProviderName("Hacker News", providerName: "hacker--news") }
        #expect(try ProviderName("Hacker News").apiKeyVariable == "HACKER_NEWS_API_KEY")
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
