import Domain
import Foundation
import ProviderKit
import WasmPluginProvider

/// A validated `manifest.json` (version 1): which sources exist, which provider serves each, and their limits.
public struct Manifest: Sendable, Hashable {
    public struct Defaults: Sendable, Hashable {
        public var timeoutSeconds: Double
        public var concurrency: Int
        /// How long an HTTP response is used without asking the server again; 0 turns the cache off.
        public var cacheTTLSeconds: Double
        /// `caFile`: a PEM bundle of CAs every HTTP source trusts besides the run's, unless it names its own.
        public var caFile: URL?

        /// How often `aggregate watch` refreshes a source.
        public var refreshSeconds: Double
        /// Most HTTP requests in flight at once across every source (each source's `concurrency` still
        /// applies within it).
        public var maxConcurrentRequests: Int = Defaults.defaultMaxConcurrentRequests
        /// `filter`: applied to every source's items, before the source's own (`Manifest+Filter.swift`).
        public var filter: Filter?
        /// Most connections to one host and port at once across every source, for politeness towards one server;
        /// nil: no limit but `maxConcurrentRequests` (requests beyond it wait for a connection, or share an HTTP/2
        /// one).
        public var maxConnectionsPerHost: Int?
        /// `retention`: how long the item archive keeps each source's items, unless the source says.
        public var retention: ArchiveRetention = .default

        public static let defaultCacheTTLSeconds: Double = 300
        public static let defaultRefreshSeconds: Double = 300
        /// The requests a run keeps in flight unless the manifest says otherwise (`defaults.maxConcurrentRequests`);
        /// why 64: docs/MANIFEST.md and BENCHMARKS.md ("1,000 sources at once").
        public static let defaultMaxConcurrentRequests = 64
        /// The most a manifest may ask for: the default soft limit on open files is 1,024, and each request
        /// holds one.
        public static let maxConcurrentRequestsRange = 1...1024
        /// The shortest refresh of a source that asks a service (local sources may refresh as often as they like).
        public static let minimumRemoteRefreshSeconds: Double = 10

        public init(
            timeoutSeconds: Double = 10, concurrency: Int = 8, cacheTTLSeconds: Double = Defaults.defaultCacheTTLSeconds,
            refreshSeconds: Double = Defaults.defaultRefreshSeconds
        ) {
            self.timeoutSeconds = timeoutSeconds
            self.concurrency = concurrency
            self.cacheTTLSeconds = cacheTTLSeconds
            self.refreshSeconds = refreshSeconds
        }
    }

    public struct Source: Sendable, Hashable {
        public var id: String
        public var provider: String
        public var enabled: Bool
        public var timeoutSeconds: Double
        public var concurrency: Int
        /// HTTP responses are reused for this long without a request; 0 disables the response cache (and
        /// with it stale-if-error and `--offline` answers) for this source.
        public var cacheTTLSeconds: Double = Defaults.defaultCacheTTLSeconds
        /// How often `aggregate watch` refreshes the source.
        public var refreshSeconds: Double = Defaults.defaultRefreshSeconds
        /// The provider's options as written, before `${VAR}` substitution.
        public var options: JSONValue
        /// Position in `sources`, for JSON paths in later messages.
        public var index: Int
        /// The filters its items pass, in order: `defaults.filter`, then its own `filter` (`"filter": null`
        /// leaves out the default). Empty: every item is kept.
        public var filters: [Filter] = []
        /// How long the item archive keeps its items: its own `retention`, else `defaults.retention`.
        public var retention: ArchiveRetention = .default

        public var optionsPath: String { "sources[\(index)].options" }
    }

    public var version: Int
    public var defaults: Defaults
    public var sources: [Source] {
        didSet { positions = Self.positions(of: sources) }
    }
    /// Each source's position in `sources` by id (the first, should ids repeat): `source(id:)` is asked once per
    /// source of a run, and a linear search made a 10,000-source run quadratic.
    private var positions: [String: Int]
    /// WebAssembly plugins, each a provider of its own name (`Manifest+Plugins.swift`).
    public var plugins: [PluginDeclaration] = []
    /// Where new items are delivered (`Manifest+Sinks.swift`).
    public var sinks: [Sink] = []
    /// `"store": {"url": …}`: the shared store (a `postgres://` URL, `${VAR}`s allowed), before substitution. nil
    /// keeps the SQLite store in the data directory; `AGGREGATE_STORE` overrides either.
    public var storeURL: String?
    /// `"reader"`: the account reader apps sync with; nil: serve offers no reader API.
    public var reader: Reader?
    /// The manifest file's directory: relative paths in options resolve against it.
    public var baseDirectory: URL

    public init(
        version: Int, defaults: Defaults, sources: [Source], sinks: [Sink] = [], storeURL: String? = nil,
        baseDirectory: URL
    ) {
        self.version = version
        self.defaults = defaults
        self.sources = sources
        self.positions = Self.positions(of: sources)
        self.sinks = sinks
        self.storeURL = storeURL
        self.baseDirectory = baseDirectory
    }

    public func source(id: String) -> Source? {
        positions[id].map { sources[$0] }
    }

    private static func positions(of sources: [Source]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(sources.count)
        for (position, source) in sources.enumerated() where positions[source.id] == nil { positions[source.id] = position }
        return positions
    }

    /// The sources `selection` (`--sources`) names, in manifest order, or every source for nil: the one check of a
    /// selection against the manifest, for every front end (run, watch, serve, worker, check-source, queries).
    /// - Throws: `.unknownSources` with the ids the manifest lacks and those it defines.
    public func sources(selectedBy selection: [String]?) throws(SelectionError) -> [Source] {
        guard let selection else { return sources }
        let unknown = selection.filter { positions[$0] == nil }
        if !unknown.isEmpty { throw .unknownSources(unknown, known: sources.map(\.id)) }
        let named = Set(selection)
        return sources.filter { named.contains($0.id) }
    }

    public func sink(id: String) -> Sink? {
        sinks.first { $0.id == id }
    }
}
