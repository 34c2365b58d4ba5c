import Foundation

/// The parts of a generated provider that depend on its capability. The shared file templates
/// (`ProviderFileTemplate`, `TestFileTemplate`) put them in place.
struct CapabilityTemplate {
    /// One line for `aggregate providers`.
    var summary: String
    /// The `options` object of the manifest example in the provider's doc comment.
    var manifestOptions: String
    /// Doc comment lines (without `/// `) on how requests are made and failures reported.
    var about: [String]
    /// `OptionSpec(…),` lines, indented for the options array.
    var optionSpecs: String
    /// Statements reading and checking the capability's options from `reader`.
    var readOptions: String
    /// Statements that need the shared HTTP options (`http.baseURL`), still before `reader.finish()`.
    var readAfterHTTPOptions: String = ""
    /// Statements after `reader.finish()`: unwrapping required options.
    var unwrapOptions: String
    /// Statements building the repository from `client`, `http` and `apiKey` and returning the use case.
    var makeSource: String
    var repositoryFile: String
    var dtoFile: String
    /// The sample response in `Tests/…/Fixtures/`.
    var fixtureName: String
    var fixture: String
    /// Entries of the test's options dictionary (Swift), besides `baseURL` and `apiKey`.
    var testOptions: String
    /// Swift statements scripting `server` with `try recordedResponse()`.
    var routes: String
    /// A Swift expression: the item ids the recorded response gives with `testOptions`.
    var expectedIDs: String
    /// Swift `#expect` statements about `server.requests` after that run.
    var requestExpectations: String
    /// An invalid value for one capability option (Swift `JSONValue` literal) and the problem's JSON path.
    var invalidKey: String
    var invalidValue: String
    var invalidPath: String
}

extension Capability {
    func template(for name: ProviderName) -> CapabilityTemplate {
        switch self {
        case .records: .records(name)
        case .weather: .weather(name)
        case .issues: .issues(name)
        case .movies: .movies(name)
        case .feed: .feed(name)
        }
    }
}

/// The request-building lines every generated repository shares: JSON, and the key as a bearer token that
/// the HTTP client scrubs from every message and log line.
enum RequestTemplate {
    static let headers = #"""
            var headers: HTTPHeaders = ["Accept": "application/json"]
            if let apiKey { headers.add("Authorization", "Bearer \(apiKey)") }
    """#

    static let secrets = "apiKey.map { [$0] } ?? []"

    /// The stored properties and initializer of a repository over the shared HTTP client.
    static func members(_ repository: String, extra: [(name: String, type: String)] = []) -> String {
        let all: [(name: String, type: String)] =
            [("client", "any HTTPFetching"), ("baseURL", "URL"), ("apiKey", "String?")] + extra
        let properties = all.map { "    private let \($0.name): \($0.type)" }.joined(separator: "\n")
        let parameters = all.map { "\($0.name): \($0.type)" }.joined(separator: ", ")
        let assignments = all.map { "        self.\($0.name) = \($0.name)" }.joined(separator: "\n")
        return """
        \(properties)

            public init(\(parameters)) {
        \(assignments)
            }
        """
    }
}
