import Domain
import Foundation
import ProviderKit
import ProviderTesting
import TMDBProvider
import Testing

@Suite("TMDB provider options")
struct TMDBProviderTests {
    let provider = TMDBProvider()

    func messages(_ options: JSONValue) -> [String: String] {
        Dictionary(provider.optionProblems(options).map { ($0.path, $0.message) }, uniquingKeysWith: { $0 + "; " + $1 })
    }

    @Test("complete entries build a source, in every mode and with either credential")
    func valid() {
        #expect(provider.optionProblems(["query": "Inception", "apiKey": "k"]).isEmpty)
        #expect(provider.optionProblems(["apiKey": "k"]).isEmpty, "the query may come from --query at run time")
        #expect(provider.optionProblems([
            "mode": "search", "query": "Alien", "pages": 20, "language": "en-US", "region": "us",
            "includeAdult": false, "year": 1979, "accessToken": "t", "imageBaseURL": "https://image.tmdb.org/t/p/w185",
            "baseURL": "https://api.themoviedb.org", "maxRetries": 0,
        ]).isEmpty)
        for mode in ["popular", "top_rated", "now_playing", "trending"] {
            #expect(provider.optionProblems(["mode": .string(mode), "apiKey": "k", "pages": 2, "language": "fr"]).isEmpty)
        }
        #expect(TMDBProvider().name == "tmdb")
        #expect(TMDBProvider().acceptsQuery)
    }

    @Test("exactly one credential: none, both, or an empty one is reported at its JSON path")
    func credentials() {
        #expect(provider.optionProblems(["query": "x"]).map(\.path) == ["sources[0].options.apiKey"])
        #expect(provider.optionProblems(["query": "x", "apiKey": "k", "accessToken": "t"]).map(\.path)
            == ["sources[0].options.accessToken"])
        #expect(provider.optionProblems(["query": "x", "apiKey": " "]).map(\.path) == ["sources[0].options.apiKey"])
    }

    @Test("bad values name the exact place and what is allowed")
    func badValues() {
        let found = messages([
            "mode": "trending_day", "pages": 21, "language": "english", "region": "USA", "includeAdult": "yes",
            "imageBaseURL": "ftp://images", "apiKey": "k", "page": 2, "maxRetries": 11,
        ])
        #expect(found["sources[0].options.mode"]?.contains("search, popular, top_rated, now_playing, trending") == true)
        #expect(found["sources[0].options.mode"]?.contains("did you mean 'trending'") == true)
        #expect(found["sources[0].options.pages"] == "must be between 1 and 20, found 21")
        #expect(found["sources[0].options.language"]?.contains("en-US") == true)
        #expect(found["sources[0].options.region"]?.contains("two-letter") == true)
        #expect(found["sources[0].options.includeAdult"] == "expected true or false, found a string")
        #expect(found["sources[0].options.imageBaseURL"]?.contains("http://") == true)
        #expect(found["sources[0].options.page"]?.contains("did you mean 'pages'") == true)
        #expect(found["sources[0].options.maxRetries"]?.contains("between 0 and 10") == true)
        #expect(provider.optionProblems(["query": "x", "apiKey": "k", "pages": 0]).map(\.path) == ["sources[0].options.pages"])
    }

    @Test("search-only options are refused in list modes, and an empty query anywhere")
    func modeSpecific() {
        let found = messages(["mode": "trending", "query": "x", "year": 2000, "includeAdult": true, "region": "US",
                              "apiKey": "k"])
        #expect(found.keys.sorted() == ["query", "year", "includeAdult", "region"].map { "sources[0].options.\($0)" }.sorted())
        #expect(found["sources[0].options.year"]?.contains("only to mode search") == true)
        #expect(messages(["query": "", "apiKey": "k"])["sources[0].options.query"]?.contains("--query") == true)
        #expect(messages(["query": "x", "year": 99, "apiKey": "k"])["sources[0].options.year"] != nil)
    }

    @Test("a credential is refused over plain http to a host that is not loopback, without quoting it")
    func plainHTTP() throws {
        let found = provider.optionProblems(["query": "x", "accessToken": .string(accessToken), "baseURL": "http://api.themoviedb.org"])
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.path == "sources[0].options.baseURL")
        #expect(problem.message.contains("'accessToken'"))
        #expect(!problem.message.contains(accessToken))
    }

    @Test("every option is documented, the shared HTTP ones included")
    func specs() {
        let names = TMDBProvider().options.map(\.name)
        for name in ["mode", "query", "pages", "language", "region", "includeAdult", "year", "apiKey", "accessToken",
                     "baseURL", "imageBaseURL", "maxRetries"] {
            #expect(names.contains(name))
        }
        #expect(TMDBProvider().options.allSatisfy { !$0.help.isEmpty })
    }
}
