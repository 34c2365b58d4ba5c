import App
import ArgumentParser
import Domain

/// The search queries that sources (TMDB movie searches) ran successfully, most recent first.
struct QueriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queries",
        abstract: "List recent search queries, most recent first (with --source, one per line).",
        discussion: """
            Every successful search of a source that takes --query is remembered (at most \
            \(AppDIContainer.recentQueriesLimit) per source, repeats collapsed) in $AGGREGATE_HOME, else \
            $XDG_DATA_HOME/aggregate, else ~/.local/share/aggregate.
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @Option(name: .long, help: ArgumentHelp("Only this source's queries, one per line.", valueName: "id"))
    var source: String?

    func run() throws {
        let container = try manifestOptions.loadContainer()
        let rows: [(source: String, query: String)]
        do throws(RecentQueriesError) {
            rows = try container.recentQueries(source: source)
        } catch {
            switch error {
            case .selection: throw ValidationError(error.description)
            case .storeUnavailable(_, let warnings):
                for warning in warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
                fallthrough
            case .store:
                Terminal.writeError("aggregate: \(error)\n")
                throw ExitCode(ExitStatus.sourcesFailed)
            }
        }
        if source != nil {
            for row in rows { print(row.query) }
        } else if !rows.isEmpty {
            print(TextColumns.format([["SOURCE", "QUERY"]] + rows.map { [$0.source, $0.query] }), terminator: "")
        }
        if rows.isEmpty {
            Terminal.writeError("aggregate: no recent queries in \(container.storeDisplayName)\n")
        }
    }
}
