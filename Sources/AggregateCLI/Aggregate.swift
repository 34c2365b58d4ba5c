import ArgumentParser
import ProviderKit

struct Aggregate: ParsableCommand {
    static let version = ToolVersion.current

    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "Pull data from many sources at once and print one clean result.",
        discussion: """
            Sources are declared in manifest.json (see README.md) and load concurrently; \
            a slow or broken source is reported on its own and never spoils the others. \
            'run' is the default command: see 'aggregate run --help' for its options.

            EXAMPLES
              aggregate                              every enabled source, as a table
              aggregate --sources weather,issues     only these (even if disabled)
              aggregate --format json > out.json     stable JSON for scripts
              aggregate -f ndjson --limit 5          one item per line, 5 per source
              aggregate --deadline 3 --verbose       give up after 3 s; show timings
              aggregate validate --manifest m.json   check a manifest; fetch nothing
              aggregate list                         which sources would run, and why
              aggregate providers                    providers and their options
              aggregate schema                       the manifest's JSON Schema (editors)
              aggregate --new -f ndjson              only items not seen before (cron)
              aggregate --offline                    no network: cached data only
              aggregate cache stats                  what the response cache holds
              aggregate --sources movies --query X   search TMDB for X this run
              aggregate queries                      recent search queries
              aggregate watch                        keep sources fresh; show what is new
              aggregate serve                        the same, served over HTTP
              aggregate sinks status                 what the sinks still have to deliver
              aggregate doctor                       check keys, store, hosts: no fetch
              aggregate check-source words           run one source twice and check it
              aggregate new-provider --wasm acme     a WebAssembly plugin in C to build

            EXIT STATUS
              0   every selected source ok (or skipped because it is disabled)
              1   a source failed, timed out, could not run, or was served stale
                  (unless --allow-stale); the rest is printed; or a sink could not
                  deliver (unless --allow-sink-failures; its items stay queued)
              64  bad command line
              78  invalid manifest (nothing is fetched)
              130 interrupted (Ctrl-C; 143 for SIGTERM): what the run started is
                  stopped first, nothing is printed or stored
            """,
        version: version,
        subcommands: [
            RunCommand.self, WatchCommand.self, ServeCommand.self, ValidateCommand.self, ListCommand.self, ProvidersCommand.self,
            SchemaCommand.self, DoctorCommand.self, CheckSourceCommand.self, NewProviderCommand.self,
            SearchCommand.self, ArchiveCommand.self, CacheCommand.self, HistoryCommand.self, QueriesCommand.self, SinksCommand.self, StoreSetupCommand.self,
            ImportCommand.self, ExportCommand.self, WorkerCommand.self, FleetCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}
