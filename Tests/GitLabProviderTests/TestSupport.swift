import Domain
import Foundation
import GitLabProvider
import Logging
import ProviderKit
import ProviderTesting

let token = "glpat-TESTtoken0123456789abcdef"
/// `group/sub/project` as the server sees the path (the client sends `group%2Fsub%2Fproject`).
let nestedPath = "/api/v4/projects/group/sub/project/issues"

func issuesPath(_ project: String) -> String { "/api/v4/projects/\(project)/issues" }

enum Fixture: String {
    case narkozIssues = "narkoz_group_issues_v4.json"
    case notFound = "narkoz_error_project_not_found.json"
    case page1 = "written_issues_page1.json"
    case page2 = "written_issues_page2.json"
    case unauthorized = "written_401_unauthorized.json"

    func response(status: Int = 200, headers: [(name: String, value: String)] = []) throws -> FixtureResponse {
        guard let url = Bundle.module.url(forResource: "Fixtures/\(rawValue)", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try .file(url, status: status, headers: headers)
    }
}

func options(server: FixtureServer, projects: [String] = ["group/sub/project"], token: String? = token,
             _ extra: JSONObject = [:]) -> JSONValue {
    var options: JSONObject = [
        "projects": .array(projects.map(JSONValue.string)), "baseURL": .string(server.baseURL.absoluteString),
    ]
    if let token { options["token"] = .string(token) }
    options.merge(extra) { $1 }
    return .object(options)
}

func run(_ options: JSONValue, concurrency: Int = 4, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })) async throws -> SourceReport {
    let source = try GitLabProvider().makeSource(.testing(id: "issues", options: options, concurrency: concurrency, logger: logger))
    return await SourceRunner.run(source, id: "issues", provider: "gitlab", concurrency: concurrency)
}
