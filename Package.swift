// swift-tools-version: 6.1
// The package graph is the architecture:
//   Domain ← infrastructure (ProviderKit, …) ← provider Data targets ← App (composition root) ← aggregate (CLI)
import PackageDescription

let package = Package(
    name: "aggregate",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "aggregate", targets: ["aggregate"]),
        // For provider authors (docs/WRITING_A_PROVIDER.md; the version policy is in CHANGELOG.md): what a provider
        // needs (Domain, options, the HTTP interface), the conformance kit and fixture server for its tests, and the
        // command line to build a binary with it. No target these reach may have unsafe flags (UnsafeFlagsTests).
        .library(name: "Domain", targets: ["Domain"]),
        .library(name: "ProviderKit", targets: ["ProviderKit", "Domain", "HTTPClient"]),
        .library(name: "ProviderTesting", targets: ["ProviderTesting"]),
        .library(name: "AggregateCLI", targets: ["AggregateCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // `aggregate serve`: the HTTP server, and its metrics through swift-metrics with the Prometheus backend.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Hummingbird's channel parts (HTTPRequestPart/HTTPResponsePart), for serve's answer to an unreadable request.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The shared store: PostgreSQL for many processes and machines on one manifest.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // `.ci/docs`: the provider API's DocC documentation, one archive of every module a provider author touches.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Providers as WebAssembly plugins (docs/PLUGINS.md): the interpreter, and WAT for the tests' hostile modules.
        .package(url: "https://github.com/swiftwasm/WasmKit", exact: "0.4.2"),
    ],
    targets: [
        // MARK: - Domain
        // The JSON library the output contract and the entities are written in: JSONValue, JSONObject, a byte parser
        // and a byte writer. Foundation only; Domain re-exports it, so `import Domain` brings it.
        .target(name: "JSON"),
        // Entities, source-agnostic repository protocols, use cases, the error taxonomy. Foundation and JSON only.
        .target(name: "Domain", dependencies: ["JSON"]),

        // MARK: - Infrastructure
        // What every provider target shares: the Provider protocol, options decoding with JSON paths.
        .target(name: "ProviderKit", dependencies: [
            "Domain", "StoreSupport",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The HTTP interface every HTTP provider shares: `HTTPFetching`, requests and responses, status →
        // SourceError, options, redaction of secrets, and the response cache (a decorator over any client).
        .target(name: "HTTPClient", dependencies: [
            "Domain", "ProviderKit",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The live implementation: libcurl's multi interface on a thread of its own, one for the process; retries,
        // size cap, `--verbose` request lines. Only the composition root (and test support) depends on it.
        .target(name: "HTTPClientLive", dependencies: [
            "Domain", "HTTPClient", "CCurl",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The system's libcurl (libcurl4-openssl-dev) with typed wrappers for its variadic functions. On Linux it is
        // loaded by the first transfer (curl_on_demand.c), not by every start (what that saves: BENCHMARKS.md,
        // "Cold start"). The HTTP transport and the email sink.
        .target(name: "CCurl", dependencies: ["CLibraryOnDemand"], linkerSettings: [
            .linkedLibrary("curl", .when(platforms: [.macOS])),
        ]),
        // dlopen once, by the first call, for the system libraries a run may not need (curl, libxml2, libjq).
        .target(name: "CLibraryOnDemand", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // RSS / Atom / RDF parsing (libxml2's SAX2 push parser, streaming), shared by the feed and files providers; HTML
        // pages by XPath (the html provider) and OPML subscription lists, on libxml2's tree parsers.
        .target(name: "FeedParsing", dependencies: ["Domain", "CLibXML2", "CLibXML2OnDemand"]),
        // The system's libxml2 (libxml2-dev), as the store links the system's SQLite: a missing header stops the
        // build naming the package to install. On Linux it only declares the API, found through the symlink
        // include/libxml → /usr/include/libxml2/libxml (no flag), and the library is loaded by the first feed
        // parsed (CLibXML2OnDemand), not by every start.
        libXML2Declarations,
        .target(name: "CLibXML2OnDemand", dependencies: ["CLibXML2", "CLibraryOnDemand"], linkerSettings: [
            .linkedLibrary("xml2", .when(platforms: [.macOS])),
        ]),

        // What both stores implement and share, neither depending on the other: the response cache's store
        // protocols (ProviderKit keeps their names), `StoreMaintaining`, and `StoreCoding` (the bytes both write).
        .target(name: "StoreSupport", dependencies: ["Domain"]),
        // The persistent store: one SQLite database (GRDB) behind the Domain/StoreSupport store protocols: HTTP
        // response cache, last good copy of each source, item history, recent queries. (Crypto: the digests of
        // the history's batches, `SeenBatches`.)
        .target(name: "SQLiteStore", dependencies: [
            "Domain", "JSON", "StoreSupport", "CSQLiteConnection",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The shared store: the same protocols on PostgreSQL (PostgresNIO), for many processes and machines on one
        // manifest: fetch leases on the response cache, announce-once history, the sinks' outbox.
        .target(name: "PostgresStore", dependencies: [
            "Domain", "StoreSupport",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // C wrappers for the SQLite connection settings Swift cannot call (`sqlite3_db_config` is variadic).
        .target(name: "CSQLiteConnection", linkerSettings: [.linkedLibrary("sqlite3")]),
        // posix_spawn for the programs Processes runs: default signal mask and actions, a process group of
        // their own, only stdin/stdout/stderr inherited (`_np` file actions Swift cannot call portably).
        .target(name: "CProcessSpawn"),
        // Running a program and seeing it gone: spawn, feed stdin, drain stdout and stderr, stop on timeout or
        // cancellation (SIGTERM, then SIGKILL, its whole process group). The exec provider's sources, the exec
        // sink and credential helpers (App) run their programs through it.
        .target(name: "Processes", dependencies: [
            "Domain", "CProcessSpawn",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // `--jq` on the system's libjq (libjq-dev), as the SQLite store links the system's SQLite: the jq
        // language is the library's; a missing header stops the build naming the package to install.
        // On Linux libjq is loaded by the first filter compiled (jq_on_demand.c), not by every start.
        .target(name: "CJQ", dependencies: ["CLibraryOnDemand"], linkerSettings: [
            .linkedLibrary("jq", .when(platforms: [.macOS])),
        ]),
        // A compiled jq program with its own lock: what `--jq` (Presentation) and manifest filters (App) share.
        .target(name: "JQ", dependencies: ["CJQ"]),

        // Mustache templates with the project's helpers: `--template` (Presentation) and the sinks' messages.
        .target(name: "Templating", dependencies: [
            "Domain",
            .product(name: "Mustache", package: "swift-mustache"),
        ]),

        // MARK: - Providers (one Data target each; Domain + infrastructure only)
        .target(name: "FilesProvider", dependencies: ["Domain", "ProviderKit"]),
        .target(name: "ExecProvider", dependencies: [
            "Domain", "ProviderKit", "Processes",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "OpenWeatherProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),
        .target(name: "GitHubProvider", dependencies: [
            "Domain", "ProviderKit", "HTTPClient",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "FeedProvider", dependencies: [
            "Domain", "ProviderKit", "HTTPClient", "FeedParsing",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Pages without a feed: libxml2's HTML parser and XPath (FeedParsing), items as the feed provider's entries.
        .target(name: "HTMLProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient", "FeedParsing"]),
        .target(name: "TMDBProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),
        .target(name: "OpenMeteoProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),
        .target(name: "HackerNewsProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),
        .target(name: "GitLabProvider", dependencies: ["Domain", "ProviderKit", "HTTPClient"]),
        // Providers as WebAssembly plugins (docs/PLUGINS.md): a module declared in the manifest's `plugins`, run by
        // WasmKit's interpreter per source load with fuel, a memory limit, HTTP only to its allowed hosts and, of
        // WASI, clocks and random only (its own small shim, not WasmKitWASI's bridge to the host's files).
        .target(name: "WasmPluginProvider", dependencies: [
            "Domain", "ProviderKit", "HTTPClient",
            .product(name: "WasmKit", package: "WasmKit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - Sinks
        // Where new items are delivered: a signed webhook (HTTP interface, HMAC) and a program (Processes, as
        // the exec provider runs its programs). Domain's `DeliverToSinkUseCase` drives them; App builds them.
        .target(name: "Sinks", dependencies: [
            "Domain", "HTTPClient", "Processes", "Templating", "CCurl",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // MARK: - Composition
        // The only place that names concrete providers.
        .target(name: "App", dependencies: [
            "Domain", "ProviderKit", "HTTPClient", "HTTPClientLive",
            "FilesProvider", "ExecProvider", "OpenWeatherProvider", "GitHubProvider", "TMDBProvider", "FeedProvider",
            "OpenMeteoProvider", "HackerNewsProvider", "GitLabProvider", "HTMLProvider", "WasmPluginProvider",
            "FeedParsing", "SQLiteStore", "PostgresStore", "StoreSupport", "Sinks", "JQ", "Templating", "Processes",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // MARK: - Presentation
        // The aggregate view model and the renderers (table, JSON, NDJSON, CSV, Markdown, live progress), and
        // the output shapers: `--jq` (libjq) and `--template` (Mustache).
        .target(name: "Presentation", dependencies: ["Domain", "JQ", "Templating"]),

        // MARK: - Server
        // `aggregate serve`: HTTP routes (Hummingbird) thin over App's watch engine and Presentation's renderers,
        // the latest state of every source, server-sent events, Prometheus metrics and the dashboard.
        .target(name: "Server", dependencies: [
            "App", "Presentation", "Domain", "HTTPClient",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),

        // MARK: - CLI
        // The whole command line as a library (product AggregateCLI): a custom binary with providers of its own
        // is one call, `AggregateCLI.main(providers: AggregateCLI.builtInProviders + [AcmeProvider()])`.
        .target(name: "AggregateCLI", dependencies: [
            "App", "Presentation", "Domain", "ProviderKit", "Server", "ProviderScaffold",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The `aggregate` executable: AggregateCLI with the built-in providers.
        .executableTarget(name: "aggregate", dependencies: ["AggregateCLI"], linkerSettings: [
            // The binary's own symbols stay out of its dynamic symbol table, which `--static-swift-stdlib` would
            // fill (`-export-dynamic`): no library or plugin links against the tool, and crash backtraces read the
            // symbol table, not this one. What it costs otherwise: BENCHMARKS.md, "Cold start".
            .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
        ]),

        // MARK: - Plugins
        // `swift package new-provider`: the templates live in a library (tested), the plugin runs the tool. The same
        // library scaffolds WebAssembly plugins in C for `aggregate new-provider --wasm`.
        .target(name: "ProviderScaffold"),
        .executableTarget(name: "provider-scaffold", dependencies: ["ProviderScaffold"]),
        .plugin(
            name: "NewProvider",
            capability: .command(
                intent: .custom(verb: "new-provider", description: "Create a provider target and its tests from templates"),
                permissions: [.writeToPackageDirectory(reason: "It creates Sources/<Name>Provider and Tests/<Name>ProviderTests")]),
            dependencies: ["provider-scaffold"]),

        // MARK: - Test support
        // A loopback fixture server, a loopback client and helpers that test targets share; never linked into the tool.
        .target(name: "ProviderTesting", dependencies: [
            "Domain", "ProviderKit", "HTTPClient", "HTTPClientLive", "CProcessSpawn",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ], resources: [.copy("Resources")]),

        // MARK: - Benchmarks
        // A tiny runner for Benchmarks/feeds/run.sh (parses one file, prints entries, seconds, peak RSS).
        .executableTarget(name: "feed-bench", dependencies: ["FeedParsing", "Domain"], path: "Benchmarks/feeds/FeedBench"),

        // MARK: - Tests
        .testTarget(name: "DomainTests", dependencies: ["Domain", "ProviderTesting"]),
        .testTarget(name: "ProviderKitTests", dependencies: ["ProviderKit"]),
        // CSV.swift: the reference reader the CSV golden test compares the files provider's with.
        .testTarget(name: "FilesProviderTests", dependencies: [
            "FilesProvider", "ProviderTesting", "ProviderKit", "Domain",
            .product(name: "CSV", package: "CSV.swift"),
        ], resources: [.copy("Fixtures")]),
        // Processes' tests too (ChildProcessTests, ProgramLifecycleTests): they share this target's script helpers.
        .testTarget(name: "ExecProviderTests", dependencies: [
            "ExecProvider", "Processes", "ProviderTesting", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "HTTPClientTests", dependencies: [
            "HTTPClient", "HTTPClientLive", "CCurl", "ProviderTesting", "Domain", "ProviderKit", "SQLiteStore",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "ProviderTestingTests", dependencies: [
            "ProviderTesting", "HTTPClient", "HTTPClientLive", "ProviderKit", "Domain", "CProcessSpawn",
        ]),
        .testTarget(name: "OpenWeatherProviderTests", dependencies: [
            "OpenWeatherProvider", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "GitHubProviderTests", dependencies: [
            "GitHubProvider", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedParsingTests", dependencies: ["FeedParsing", "Domain", "ProviderTesting"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "FeedProviderTests", dependencies: [
            "FeedProvider", "FeedParsing", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "HTMLProviderTests", dependencies: [
            "HTMLProvider", "FeedParsing", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "AppTests",
                    dependencies: ["App", "ProviderKit", "Domain", "SQLiteStore", "StoreSupport", "ProviderTesting", "HTTPClient"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "SQLiteStoreTests", dependencies: [
            "SQLiteStore", "StoreSupport", "ProviderKit", "ProviderTesting", "Domain", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The store contract, run against both stores (SQLite always, PostgreSQL with AGGREGATE_TEST_POSTGRES_URL).
        .testTarget(name: "PostgresStoreTests", dependencies: [
            "PostgresStore", "SQLiteStore", "StoreSupport", "ProviderKit", "ProviderTesting", "Domain",
        ]),
        .testTarget(name: "TMDBProviderTests", dependencies: [
            "TMDBProvider", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "OpenMeteoProviderTests", dependencies: [
            "OpenMeteoProvider", "ProviderTesting", "ProviderKit", "Domain",
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "HackerNewsProviderTests", dependencies: [
            "HackerNewsProvider", "ProviderTesting", "ProviderKit", "Domain",
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "GitLabProviderTests", dependencies: [
            "GitLabProvider", "ProviderTesting", "ProviderKit", "Domain",
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        // libjq from many threads at once: the reason JQExpression needs no process-wide lock.
        .testTarget(name: "JQTests", dependencies: ["JQ"]),
        .testTarget(name: "PresentationTests", dependencies: [
            "Presentation", "Domain", "ProviderTesting", "FeedParsing",
            .product(name: "CSV", package: "CSV.swift"),
        ]),
        .testTarget(name: "aggregateTests", dependencies: [
            "aggregate", "ProviderTesting", "HTTPClient",
            .product(name: "Crypto", package: "swift-crypto"),
        ], resources: [.copy("Fixtures")]),
        .testTarget(name: "SinksTests", dependencies: [
            "Sinks", "Domain", "HTTPClient", "HTTPClientLive", "ProviderTesting", "Templating",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ServerTests", dependencies: [
            "Server", "App", "Presentation", "Domain", "ProviderTesting", "HTTPClient",
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "Logging", package: "swift-log"),
        ], resources: [.copy("Fixtures")]),
        // Hostile modules in WAT (WasmKit's WAT parses them) and a C example plugin built by the tests.
        .testTarget(name: "WasmPluginProviderTests", dependencies: [
            "WasmPluginProvider", "ProviderTesting", "HTTPClient", "ProviderKit", "Domain",
            .product(name: "WAT", package: "WasmKit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "ProviderScaffoldTests", dependencies: ["ProviderScaffold", "ProviderTesting", "ProviderKit"]),
    ]
)

// MARK: - Fuzzing
// libFuzzer targets, built only with `AGGREGATE_FUZZ=1` (and `-Xswiftc -sanitize=fuzzer`): see Fuzz/run.sh.
if Context.environment["AGGREGATE_FUZZ"] == "1" {
    package.targets += [
        .target(name: "FuzzSupport", path: "Fuzz/FuzzSupport"),
        .executableTarget(name: "FeedParserFuzzer", dependencies: ["FeedParsing", "FuzzSupport"], path: "Fuzz/FeedParserFuzzer"),
        .executableTarget(name: "ManifestFuzzer", dependencies: ["App", "FuzzSupport"], path: "Fuzz/ManifestFuzzer"),
        .executableTarget(
            name: "RecordReadersFuzzer", dependencies: ["FilesProvider", "Domain", "FuzzSupport"], path: "Fuzz/RecordReadersFuzzer"),
    ]
}

// A subset of the package: `AGGREGATE_ONLY=GitHubProviderTests swift test` keeps the named targets (comma-separated),
// what they depend on and the new-provider plugin, so one provider's tests build in a fraction of the time.
if let only = Context.environment["AGGREGATE_ONLY"], !only.isEmpty {
    let targetsByName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    var kept = Set<String>()
    var pending = only.split(separator: ",").map { String($0.filter { $0 != " " }) } + ["NewProvider"]
    while let name = pending.popLast() {
        guard let target = targetsByName[name], kept.insert(name).inserted else { continue }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): pending.append(name)
            default: break
            }
        }
    }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products = []
}

// Shared settings, applied once: Swift 6 language mode (strict concurrency) everywhere.
for target in package.targets where target.type != .plugin && target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    target.swiftSettings = settings
}

/// The CLibXML2 module. On Linux a C target whose public include directory holds a symlink to the system's headers
/// (`include/libxml` → `/usr/include/libxml2/libxml`, where Debian, Ubuntu and Fedora install them): its dependents
/// find `<libxml/parser.h>` without `-I/usr/include/libxml2`, an unsafe flag that SwiftPM refuses in a package used
/// by version, and without pkg-config, whose `-lxml2` would put libxml2, ICU, liblzma and zlib back among the
/// libraries every start loads. Elsewhere a system library found with pkg-config and linked as usual.
var libXML2Declarations: Target {
    #if os(Linux)
    .target(name: "CLibXML2")
    #else
    .systemLibrary(
        name: "CLibXML2", path: "Sources/CLibXML2/include", pkgConfig: "libxml-2.0",
        providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])])
    #endif
}
