import Domain
import Foundation
import HTTPClient
import ProviderKit

/// A provider served by a WebAssembly plugin the manifest declares (`plugins`, docs/PLUGINS.md): sources name it
/// by the plugin's name and the plugin reads their options.
///
/// The host reads two options itself, never handed to the plugin as written: `credentials` (named secrets the
/// plugin may ask the host to send as headers, without seeing them) and `maxOutputBytes`. Everything else is the
/// plugin's, checked by its `aggregate_check` export when it has one.
public struct WasmPluginProvider: Provider {
    public let declaration: PluginDeclaration
    private let modules: PluginModuleCache

    /// Bytes of `emit` and `log` one run may write: as the exec provider's stdout cap.
    public static let defaultMaxOutputBytes = 64 << 20
    /// Fuel for `aggregate_check`, which only reads options: it runs where the manifest is validated and where
    /// a source is built (a thread of the run), so it is kept short.
    static let checkFuel: UInt64 = 10_000_000
    static let hostOptions = ["credentials", "maxOutputBytes"]

    public init(_ declaration: PluginDeclaration, modules: PluginModuleCache = .shared) {
        self.declaration = declaration
        self.modules = modules
    }

    public var name: String { declaration.name }
    /// The query is handed to the plugin (its input's `query`), which may use it or not.
    public var acceptsQuery: Bool { true }
    /// A plugin that may reach no host reads nothing but its options: it may refresh as often as a local source.
    public var isLocal: Bool { declaration.allowedHosts.isEmpty }

    public var summary: String {
        let hosts = declaration.allowedHosts.isEmpty ? "no HTTP" : "HTTP to \(declaration.allowedHosts.joined(separator: ", "))"
        return "WebAssembly plugin \(declaration.module.lastPathComponent) (\(hosts)); its other options are the plugin's own"
    }

    public var options: [OptionSpec] {
        [
            OptionSpec("credentials", "object of strings", default: "{}", secretValues: true,
                       help: "named secrets the plugin may ask the host to add as a header to an allowed host; it never sees their values"),
            OptionSpec("maxOutputBytes", "integer", default: "\(Self.defaultMaxOutputBytes)", identity: .tuning,
                       help: "bytes the plugin may emit and log in one run; more fails the source"),
        ]
    }

    /// The module's digest, for the source's stored identity (nil when it cannot be read).
    public var moduleDigest: String? { modules.digest(at: declaration.module) }

    public func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let path = configuration.optionsPath
        guard case .object(var pluginOptions) = configuration.options == .null ? .object([:]) : configuration.options else {
            throw ManifestError(path: path, "expected an object, found \(configuration.options.typeName)")
        }
        var problems: [ManifestProblem] = []
        var credentials: [String: String] = [:]
        if let value = pluginOptions["credentials"] {
            if case .object(let members) = value, members.allSatisfy({ $0.value.stringValue != nil }) {
                for (key, member) in members { credentials[key] = member.stringValue }
            } else {
                problems.append(ManifestProblem(path: "\(path).credentials", message: "expected an object of strings"))
            }
        }
        var maxOutputBytes = Self.defaultMaxOutputBytes
        if let value = pluginOptions["maxOutputBytes"] {
            if case .int(let number) = value, number >= 1 { maxOutputBytes = number } else {
                problems.append(ManifestProblem(path: "\(path).maxOutputBytes", message: "expected an integer of at least 1"))
            }
        }
        for key in Self.hostOptions { pluginOptions[key] = nil }
        let input = PluginInput(
            sourceID: configuration.id, options: pluginOptions, query: configuration.query,
            credentialNames: credentials.keys.sorted(), declaration: declaration, maxOutputBytes: maxOutputBytes,
            timeoutSeconds: configuration.timeoutSeconds).bytes

        let loaded: LoadedPluginModule
        do throws(PluginFailure) {
            loaded = try modules.module(at: declaration.module)
        } catch {
            throw ManifestError(problems + [ManifestProblem(path: "\(path)", message: error.sourceError(plugin: name).message)])
        }
        problems += check(loaded, input: input, path: path)
        if !problems.isEmpty { throw ManifestError(problems) }

        let limits = PluginRun.Limits(
            fuel: declaration.fuel, memoryPages: declaration.memoryPages, maxOutputBytes: maxOutputBytes)
        let client = configuration.httpClient(HTTPClientConfiguration(
            requestTimeout: configuration.timeoutSeconds, logger: configuration.logger, sourceID: configuration.id))
        let repository = PluginRecordRepository(
            plugin: declaration, modules: modules, sourceID: configuration.id, input: input, limits: limits,
            timeoutSeconds: configuration.timeoutSeconds, credentials: credentials,
            http: { [declaration, credentials] cancellation in
                PluginHTTPBridge(plugin: declaration, client: client, credentials: credentials, cancellation: cancellation)
            },
            stateStore: configuration.services[PluginStateStoreKey.self], logger: configuration.logger)
        return StreamRecordsUseCase(repository: repository)
    }

    /// The plugin's own option problems, from `aggregate_check` (run here, briefly, on the caller's thread).
    private func check(_ loaded: LoadedPluginModule, input: [UInt8], path: String) -> [ManifestProblem] {
        var problems: [ManifestProblem] = []
        var events = PluginRun.Events()
        events.onProblem = { option, message in
            problems.append(ManifestProblem(path: option.map { "\(path).\($0)" } ?? path, message: message))
        }
        let limits = PluginRun.Limits(
            fuel: min(declaration.fuel, Self.checkFuel), memoryPages: declaration.memoryPages,
            maxOutputBytes: Self.defaultMaxOutputBytes)
        let run = PluginRun(
            plugin: declaration, limits: limits, http: nil, state: PluginState([:]), cancellation: nil, events: events)
        if let failure = run.execute(loaded.module, entry: .check, input: input), problems.isEmpty {
            let message = failure.sourceError(plugin: name).message
            problems.append(ManifestProblem(path: path, message: "\(message) while checking the options"))
        }
        return problems
    }
}
