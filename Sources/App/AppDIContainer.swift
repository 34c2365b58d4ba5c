import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderKit
import SQLiteStore
import WasmPluginProvider

/// The composition root: builds the run's sources from the manifest through the registered providers.
///
/// Everything concrete is decided here (which provider serves a source, its environment, its logger); the
/// CLI only asks for a plan and a use case.
public struct AppDIContainer: Sendable {
    public let manifest: Manifest
    public let registry: ProviderRegistry
    let environment: [String: String]
    let logger: Logger
    /// The store in the data directory, opened by the first run that needs it and shared by later ones.
    let store: StoreHandle
    /// `defaults.maxConcurrentRequests`: every HTTP request of the container's sources takes one of these.
    let requestSlots: RequestSlots
    /// The most sources loading at once across every run the container makes (a watch's and a server's runs
    /// overlap: each due source starts one): four per request slot keep the slots busy, while a 10,000-source
    /// fleet holds a few hundred sources' timers, buffers and items rather than all of them (BENCHMARKS.md,
    /// "Sources admitted as slots free up").
    let loadingSlots: Admission
    /// The live HTTP clients of the container's runs: the proxy and CA variables of its environment (read once,
    /// not for every source built), the manifest's `defaults.caFile`, and `requestSlots`, shared by every source
    /// of every run the container makes (a watch's and a server's too). The connections behind them are the
    /// process's (HTTPClientLive's `CurlLoop`, one libcurl multi handle), sized by that limit: nothing to open per run or close after one.
    let liveHTTP: LiveHTTPClientFactory
    /// Proxy variables of the environment that cannot be read (named, never quoted), for each run's warnings.
    let liveHTTPProblems: [String]
    /// Credential helpers' answers for this container's runs (asked once, not at every refresh of a watch).
    let secretCache = SecretCache()
    /// Each source's options with `${VAR}`s substituted and secret references found: once per container, for
    /// validation and every run's plan alike.
    let resolvedOptions = ResolvedOptionsCache()
    /// Where plugin sources keep their key-value state: files in the data directory (`plugin-state/`). Resolved once:
    /// finding the data directory may read the user database for the home directory.
    let pluginState: any PluginStateStoring
    /// Told of every HTTP request's outcome in this container's runs (serve's `/metrics`); nil by default.
    public var requestRecorder: (any HTTPRequestRecorder)?

    public init(
        manifest: Manifest, registry: ProviderRegistry = .builtIn,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "aggregate")
    ) {
        self.manifest = manifest
        self.registry = registry.adding(plugins: manifest.plugins)
        self.environment = environment
        self.pluginState = FilePluginStateStore(
            directory: DataDirectory.resolve(environment: environment).url.appendingPathComponent("plugin-state"))
        self.logger = logger
        self.store = StoreHandle(location: StoreLocation.resolve(manifestURL: manifest.storeURL, environment: environment))
        self.requestSlots = RequestSlots(limit: manifest.defaults.maxConcurrentRequests)
        self.loadingSlots = Admission(limit: 4 * manifest.defaults.maxConcurrentRequests)
        let network = NetworkEnvironment(environment)
        self.liveHTTP = LiveHTTPClientFactory(
            network: network, defaultCAFile: manifest.defaults.caFile, requestSlots: requestSlots,
            maxConnectionsPerHost: manifest.defaults.maxConnectionsPerHost)
        self.liveHTTPProblems = network.problems
    }

    /// Loads the manifest at `url` and checks its sources' options through their providers, so that one run
    /// reports all problems and nothing is fetched while any remain.
    /// - Parameter selection: `--sources` of the run the container is for: only these sources' options are
    ///   checked (a run of one source does not fail on another's); nil checks every source. The manifest's
    ///   structure and its sinks are checked whatever the selection.
    public static func load(
        manifestAt url: URL, registry: ProviderRegistry = .builtIn,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "aggregate"), selection: [String]? = nil
    ) throws(ManifestError) -> AppDIContainer {
        let (manifest, structural) = try ManifestLoader.loadCollecting(from: url, providers: registry.names)
        let container = AppDIContainer(manifest: manifest, registry: registry, environment: environment, logger: logger)
        do throws(ManifestError) {
            try container.validate(selection: selection)
        } catch {
            throw ManifestError(inManifestOrder(structural + error.problems))
        }
        if !structural.isEmpty { throw ManifestError(structural) }
        return container
    }

    /// Top-level problems first, then each source's, in source order (stable within a source).
    private static func inManifestOrder(_ problems: [ManifestProblem]) -> [ManifestProblem] {
        func sourceIndex(_ path: String) -> Int {
            guard path.hasPrefix("sources["), let close = path.firstIndex(of: "]") else { return -1 }
            return Int(path[path.index(path.startIndex, offsetBy: 8)..<close]) ?? -1
        }
        return problems.enumerated()
            .sorted { (sourceIndex($0.element.path), $0.offset) < (sourceIndex($1.element.path), $1.offset) }
            .map(\.element)
    }

    /// Runs the providers' option validation of the sources `selection` names, or of every source (disabled
    /// ones too: a typo should not wait until the source is switched on); ids the manifest lacks are left to
    /// the run's selection check. Missing `${VAR}`s are not problems here; they skip the source at run time.
    public func validate(selection: [String]? = nil) throws(ManifestError) {
        var problems: [ManifestProblem] = []
        let selected = selection.map(Set.init)
        for source in manifest.sources where selected?.contains(source.id) ?? true {
            // Validation reads no secret file and runs no credential helper: a reference stands in as a string.
            let resolved = resolved(source)
            do throws(ManifestError) {
                _ = try makeItemSource(source, options: resolved.placeholders, query: nil)
            } catch {
                problems.append(contentsOf: error.problems)
            }
            problems += resolved.references.problems
            let minimum = Manifest.Defaults.minimumRemoteRefreshSeconds
            if source.refreshSeconds < minimum, registry.provider(named: source.provider)?.isLocal == false {
                problems.append(ManifestProblem(
                    path: "sources[\(source.index)].refreshSeconds",
                    message: "\(JSONValue.double(source.refreshSeconds).displayText) s is too often for a source that asks "
                        + "a service; at least \(Int(minimum)) s (set here or in defaults.refreshSeconds)"))
            }
        }
        problems += sinkDirectory.problems(of: manifest.sinks)
        if !problems.isEmpty { throw ManifestError(problems) }
    }

    /// The manifest's sinks' transports, from this environment.
    var sinkDirectory: SinkDirectory {
        SinkDirectory(
            environment: environment, baseDirectory: manifest.baseDirectory, logger: logger, secretCache: secretCache,
            defaultCAFile: manifest.defaults.caFile)
    }

    /// What `aggregate list` shows: each source, whether it would run, and why not.
    public func listing() -> [SourceListing] {
        manifest.sources.map { source in
            let missing = resolved(source).missing
            let state: SourceListing.State =
                if !source.enabled { .disabled }
                else if !missing.isEmpty { .missingVariables(missing) }
                else { .ready }
            return SourceListing(id: source.id, provider: source.provider, state: state, needs: missing)
        }
    }

    /// The sources of one run, in manifest order.
    /// - Parameters:
    ///   - selection: ids from `--sources`; nil runs every source (disabled ones are reported skipped). A named
    ///     source runs even when disabled.
    ///   - query: `--query`, given to the selected sources whose provider accepts one.
    ///   - storage: the run's persistent store (response cache per source); nil runs without one.
    func plan(selection: [String]?, query: String?, storage: RunStorage? = nil) throws(SelectionError) -> [PlannedSource] {
        let chosen = try manifest.sources(selectedBy: selection)
        if query != nil {
            // Only sources that will run count: a disabled search source does not make --query meaningful.
            let running = chosen.filter { $0.enabled || selection != nil }
            let rejecting = running.filter { registry.provider(named: $0.provider)?.acceptsQuery != true }
            let explicit = selection != nil
            if rejecting.count == running.count || (explicit && !rejecting.isEmpty) {
                throw .queryNotAccepted(rejecting.map { "\($0.id) (\($0.provider))" },
                                        accepting: registry.providers.filter(\.acceptsQuery).map(\.name))
            }
        }
        return chosen.map { source in
            let named = selection != nil
            let resolved = resolved(source)
            let descriptor = SourceDescriptor(
                id: source.id, provider: source.provider, timeoutSeconds: source.timeoutSeconds,
                concurrency: source.concurrency)
            if !source.enabled && !named {
                // A first run shows what a disabled source would need (a key): the one step to turn it on.
                let missing = resolved.missing
                let reason = missing.isEmpty ? "disabled in the manifest"
                    : "disabled in the manifest; needs \(missing.map { "$\($0)" }.joined(separator: ", ")) (then name it "
                        + "with --sources \(source.id), or enable it)"
                return PlannedSource(descriptor: descriptor, plan: .skip(reason: reason, error: nil))
            }
            if !resolved.missing.isEmpty {
                let names = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
                let error = SourceError(.configuration, "needs environment variable \(names), which is not set")
                return PlannedSource(
                    descriptor: descriptor,
                    plan: named ? .fail(error) : .skip(reason: error.message, error: error))
            }
            do throws(ManifestError) {
                let accepts = registry.provider(named: source.provider)?.acceptsQuery == true
                let services = storage?.services(for: source, identity: identity(of: source, options: resolved.value))
                let providerServices = (services ?? SourceServices()).forProvider(
                    live: liveHTTP, recorder: requestRecorder, pluginState: pluginState)
                let references = resolved.references
                if !references.problems.isEmpty { throw ManifestError(references.problems) }
                if !references.isEmpty {
                    // Read when the source loads, on a thread of its own: planning never waits for a program.
                    return PlannedSource(descriptor: descriptor, plan: .load(SecretResolvingSource(
                        references: references, options: resolved.value, baseDirectory: manifest.baseDirectory,
                        timeoutSeconds: source.timeoutSeconds, environment: environment, cache: secretCache
                    ) { [self] options throws(ManifestError) in
                        try makeItemSource(source, options: options, query: accepts ? query : nil, services: providerServices)
                    }))
                }
                // Built when the engine admits it (`Admission`), so a 10,000-source run holds a few hundred built
                // sources, not all of them (BENCHMARKS.md, "Memory at 10,000 sources"); `validate` has built it once.
                let build = try sourceBuilder(source, options: resolved.value, query: accepts ? query : nil, services: providerServices)
                return PlannedSource(descriptor: descriptor, plan: .load(DeferredSource(build: build)))
            } catch {
                return PlannedSource(descriptor: descriptor, plan: .fail(SourceError(.configuration, error.description)))
            }
        }
    }

    /// The stored identity of `source` with its resolved `options` (see `SourceFingerprint`).
    func identity(of source: Manifest.Source, options: JSONValue) -> SourceIdentity {
        guard let provider = registry.provider(named: source.provider) else {
            return SourceIdentity(id: source.id, fingerprint: "")
        }
        return SourceIdentity(
            id: source.id,
            fingerprint: SourceFingerprint.make(provider: provider, options: options, baseDirectory: manifest.baseDirectory))
    }

    /// `source`'s options as a run reads them (`ResolvedOptions`), worked out the first time they are asked for.
    func resolved(_ source: Manifest.Source) -> ResolvedOptions {
        resolvedOptions.options(of: source) {
            let substituted = EnvironmentSubstitution.apply(to: source.options, environment: environment)
            return ResolvedOptions(
                value: substituted.value, missing: substituted.missing,
                references: SecretReferences(
                    provider: registry.provider(named: source.provider), options: substituted.value,
                    optionsPath: source.optionsPath))
        }
    }

    /// The store's one name for messages (`StoreLocation.displayName`): the SQLite file, or the PostgreSQL URL
    /// without its password.
    public var storeDisplayName: String { store.location.displayName }

    /// Whether other processes and machines share the store (PostgreSQL): what a fleet needs.
    public var storeIsShared: Bool { store.location.isShared }

    /// - Parameter options: the source's options with `${VAR}` substituted (and secrets read, or placeholders).
    private func makeItemSource(
        _ source: Manifest.Source, options: JSONValue, query: String?, services: ProviderServices? = nil
    ) throws(ManifestError) -> any ItemSource {
        try sourceBuilder(source, options: options, query: query, services: services)()
    }

    /// What builds `source` with these `options`: its provider is found now (an unknown one throws here), the
    /// provider's checks run when it is called.
    private func sourceBuilder(
        _ source: Manifest.Source, options: JSONValue, query: String?, services: ProviderServices? = nil
    ) throws(ManifestError) -> @Sendable () throws(ManifestError) -> any ItemSource {
        let services = services ?? SourceServices().forProvider(live: liveHTTP)
        guard let provider = registry.provider(named: source.provider) else {
            throw ManifestError(path: "sources[\(source.index)].provider", "unknown provider '\(source.provider)'")
        }
        let (logger, baseDirectory) = (logger, manifest.baseDirectory)
        return { () throws(ManifestError) -> any ItemSource in
            var sourceLogger = logger
            sourceLogger[metadataKey: "source"] = "\(source.id)"
            return try provider.makeSource(SourceConfiguration(
                id: source.id, options: options, optionsPath: source.optionsPath, baseDirectory: baseDirectory,
                timeoutSeconds: source.timeoutSeconds, concurrency: source.concurrency, query: query,
                logger: sourceLogger, services: services))
        }
    }
}

/// A source as `aggregate list` shows it.
public struct SourceListing: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        case ready
        case disabled
        case missingVariables([String])
    }

    public var id: String
    public var provider: String
    public var state: State
    /// The `${VAR}`s (without a default) its options name that are not set, whatever its state.
    public var needs: [String] = []
}

/// A `--sources` / `--query` choice that does not fit the manifest (exit 64).
public enum SelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownSources([String], known: [String])
    case queryNotAccepted([String], accepting: [String])
    /// `aggregate queries --source` named a source whose provider takes no search queries.
    case keepsNoQueries(String, keeping: [String])
    /// The shared store (PostgreSQL) cannot be used and the run was not allowed to go on without it
    /// (`--store-optional`): exit 1, since going on could announce items other processes announce too.
    case storeUnavailable(String)

    public var description: String {
        switch self {
        case .unknownSources(let unknown, let known):
            let hints = unknown.map { "'\($0)'\(Suggestion.didYouMean($0, in: known))" }.joined(separator: ", ")
            return "unknown source \(hints); the manifest defines: \(known.joined(separator: ", "))"
        case .queryNotAccepted(let sources, let accepting):
            let which = accepting.isEmpty ? "no registered provider accepts one" : "providers that accept one: \(accepting.joined(separator: ", "))"
            let target = sources.isEmpty ? "any source that will run" : sources.joined(separator: ", ")
            return "--query does not apply to \(target); \(which)"
        case .keepsNoQueries(let source, let keeping):
            let which = keeping.isEmpty ? "no source of the manifest does" : "sources that do: \(keeping.joined(separator: ", "))"
            return "\(source) keeps no search queries; \(which)"
        case .storeUnavailable(let reason):
            return "\(reason) (--store-optional runs without it)"
        }
    }
}
