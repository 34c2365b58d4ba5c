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
        let ids: [String]
        do throws(SelectionError) {
            ids = try container.recentQueriesSources(named: source)
        } catch {
            throw ValidationError(error.description)
        }
        let (database, warnings) = container.openStore()
        for warning in warnings { Terminal.writeError("aggregate: warning: \(warning)\n") }
        guard let database else {
            Terminal.writeError("aggregate: the store in \(container.dataDirectory.url.path) cannot be opened\n")
            throw ExitCode(ExitStatus.sourcesFailed)
        }
        var rows: [[String]] = []
        for id in ids {
            let queries: [String]
            do throws(SourceError) {
                queries = try container.makeMoviesQueriesRepository(database: database, sourceID: id)
                    .recentQueries(maxCount: AppDIContainer.recentQueriesLimit)
            } catch {
                Terminal.writeError("aggregate: \(id): \(error.kind.rawValue): \(error.message)\n")
                throw ExitCode(ExitStatus.sourcesFailed)
            }
            rows += queries.map { [id, $0] }
        }
        if source != nil {
            for row in rows { print(row[1]) }
        } else if !rows.isEmpty {
            print(TextColumns.format([["SOURCE", "QUERY"]] + rows), terminator: "")
        }
        if rows.isEmpty {
            Terminal.writeError("aggregate: no recent queries in \(container.dataDirectory.url.path)\n")
        }
    }
}
