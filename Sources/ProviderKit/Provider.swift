import Domain
import Foundation
import Logging

/// A kind of source a manifest can name in `"provider"`. One per provider target; registered once in the
/// composition root.
///
/// A provider turns a source's `options` into a ready `ItemSource` (a Domain use case over the provider's
/// repository). It validates every option up front, so a bad manifest is reported before anything is fetched.
public protocol Provider: Sendable {
    /// The manifest's `"provider"` value: lowercase, stable.
    var name: String { get }
    /// One line for `aggregate providers`.
    var summary: String { get }
    /// Every option the provider accepts. Keys outside this list are rejected with a suggestion.
    var options: [OptionSpec] { get }
    /// Whether `--query` applies to this provider's sources.
    var acceptsQuery: Bool { get }
    /// Whether its sources read only this machine (files, programs): they may refresh as often as they like.
    var isLocal: Bool { get }

    /// Validates `configuration.options` and builds the source. Report every problem at once through
    /// `OptionsReader`, which throws them together with their JSON paths.
    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource
}

extension Provider {
    /// False: a provider that reads `--query` says so.
    public var acceptsQuery: Bool { false }
    /// False: a provider whose sources read only this machine says so.
    public var isLocal: Bool { false }
}

/// Documentation and validation of one provider option.
public struct OptionSpec: Sendable, Hashable {
    /// How an option takes part in the source's stored identity (the fingerprint that its last good copy,
    /// history and recent queries are kept under).
    public enum Identity: Sendable, Hashable {
        /// It changes what the source fetches (a city, a repository, a key): a new value is a new identity.
        case value
        /// It changes only how the source fetches (retries, timeouts, size caps, how many items are kept):
        /// a new value keeps the identity, and so the history.
        case tuning
        /// Its value names local things relative to the manifest's directory (paths, a program): the
        /// directory is part of the identity too.
        case local
    }

    /// The option's key in `options`, as the manifest spells it.
    public var name: String
    /// The JSON shape in words, for `aggregate providers` ("array of strings").
    public var type: String
    /// Whether a source must give it; `OptionsReader.require(_:as:)` reports it missing.
    public var required: Bool
    /// The value used when the option is absent, as `aggregate providers` shows it; nil when there is none.
    public var defaultValue: String?
    /// One sentence for `aggregate providers` and the manifest schema's description.
    public var help: String
    /// How the option takes part in the source's stored identity (``Identity/value`` unless said otherwise).
    public var identity: Identity
    /// The JSON shape when `type`'s words do not say it (see `OptionShape.inferred(from:)`).
    public var explicitShape: OptionShape?
    /// A credential: besides a string (`${VAR}` allowed) the manifest may give it as a reference,
    /// `{"fromFile": PATH}` or `{"fromCommand": [PROGRAM, ARG…]}`, which the composition root reads at run
    /// time; the provider sees the string either way and redacts it as it always does.
    public var secret: Bool
    /// An object whose every value is a credential (an environment): each may be a string or a reference, as
    /// for `secret`.
    public var secretValues: Bool

    /// An option named `name` whose shape `type` describes in words; `shape` gives the JSON shape when the words
    /// do not (see `OptionShape.inferred(from:)`), and `secret`/`secretValues` mark credentials.
    public init(
        _ name: String, _ type: String, required: Bool = false, default defaultValue: String? = nil,
        identity: Identity = .value, shape: OptionShape? = nil, secret: Bool = false, secretValues: Bool = false,
        help: String
    ) {
        self.secretValues = secretValues
        self.name = name
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.identity = identity
        self.explicitShape = shape
        self.secret = secret
        self.help = help
    }
}

/// Everything a provider needs to build one source.
public struct SourceConfiguration: Sendable {
    /// The source's manifest id.
    public var id: String
    /// The provider's options, with `${VAR}` already substituted.
    public var options: JSONValue
    /// JSON path of `options` in the manifest, for error messages: `sources[1].options`.
    public var optionsPath: String
    /// The manifest's directory: relative paths in options resolve against it, not the working directory.
    public var baseDirectory: URL
    /// The source's time limit in seconds (the manifest's `timeoutSeconds` or the default): its repository's calls
    /// must end by then.
    public var timeoutSeconds: Double
    /// The most requests the source may have in flight at once (the manifest's `concurrency`, at least 1).
    public var concurrency: Int
    /// `--query` for this run, when given and the provider accepts it.
    public var query: String?
    /// Where `--verbose` diagnostics go (stderr). Never log a secret.
    public var logger: Logger
    /// Shared services the composition root provides (storage); a provider uses the ones it needs.
    public var services: ProviderServices

    /// A configuration as the composition root builds it; tests build one the same way (ProviderTesting's
    /// `ProviderHarness` does it for them).
    public init(
        id: String, options: JSONValue, optionsPath: String, baseDirectory: URL, timeoutSeconds: Double,
        concurrency: Int, query: String? = nil, logger: Logger = Logger(label: "aggregate"),
        services: ProviderServices = ProviderServices()
    ) {
        self.id = id
        self.options = options
        self.optionsPath = optionsPath
        self.baseDirectory = baseDirectory
        self.timeoutSeconds = timeoutSeconds
        self.concurrency = concurrency
        self.query = query
        self.logger = logger
        self.services = services
    }

    /// A path from the options, resolved against the manifest's directory (absolute paths and `~` kept). Text
    /// only: the file system is not asked (a directory is one when the path ends in `/`).
    public func resolvePath(_ path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(filePath: expanded, directoryHint: .inferFromPath).standardizedFileURL }
        return baseDirectory.appending(path: expanded, directoryHint: .inferFromPath).standardizedFileURL
    }
}

/// Services shared by every source of a run, built once by the composition root.
///
/// Providers depend on these through protocols only, so storage and transport can change without touching
/// them. A service is nil when the run has none (tests, or storage switched off); providers must cope.
/// Infrastructure targets add their own services by key (`ProviderServiceKey`): the HTTP layer's client
/// factory is one, so this target knows nothing of HTTP.
public struct ProviderServices: Sendable {
    /// Where successful search queries are remembered (`aggregate queries`).
    public var moviesQueries: (any MoviesQueriesRepository)?
    private var keyed: [ObjectIdentifier: any Sendable] = [:]

    /// Services with the given query history and no keyed service.
    public init(moviesQueries: (any MoviesQueriesRepository)? = nil) {
        self.moviesQueries = moviesQueries
    }

    /// The service stored under `key`, if the composition root provided one.
    public subscript<Key: ProviderServiceKey>(key: Key.Type) -> Key.Value? {
        get { keyed[ObjectIdentifier(key)] as? Key.Value }
        set { keyed[ObjectIdentifier(key)] = newValue }
    }
}

/// Names a service of `ProviderServices` and its type.
public protocol ProviderServiceKey {
    /// The service's type (often a protocol existential).
    associatedtype Value: Sendable
}
