import Foundation

/// One entry of the manifest's `plugins`: a WebAssembly module that serves sources as provider `name`.
///
///     "plugins": [{"name": "acme", "module": "plugins/acme.wasm", "allowedHosts": ["api.acme.example"],
///                  "fuel": 100000000000, "memoryPages": 256}]
public struct PluginDeclaration: Sendable, Hashable {
    /// The provider name sources use (`"provider": "acme"`).
    public var name: String
    /// The module file, absolute (the manifest's loader resolves it against the manifest's directory).
    public var module: URL
    /// The only hosts the plugin's HTTP requests may reach (exact names, case-insensitive; no wildcards).
    public var allowedHosts: [String]
    /// WebAssembly operators one run may execute (bulk copies cost one per 64 bytes).
    public var fuel: UInt64
    /// The most 64 KiB pages the plugin's memory may grow to.
    public var memoryPages: Int

    /// The fuel a plugin without `fuel` gets: a hundred billion operators, a bound that is the same on every machine.
    /// The source's `timeoutSeconds` is the tighter bound for most runs (`PluginFuelBudget`). (How it was chosen:
    /// BENCHMARKS.md, "WebAssembly plugins".)
    public static let defaultFuel: UInt64 = 100_000_000_000
    /// 256 pages: 16 MiB of guest memory.
    public static let defaultMemoryPages = 256
    /// The most `memoryPages` may be: 4 GiB, all a 32-bit module can address.
    public static let maxMemoryPages = 65_536

    public init(
        name: String, module: URL, allowedHosts: [String], fuel: UInt64 = PluginDeclaration.defaultFuel,
        memoryPages: Int = PluginDeclaration.defaultMemoryPages
    ) {
        self.name = name
        self.module = module
        self.allowedHosts = allowedHosts.map { $0.lowercased() }
        self.fuel = fuel
        self.memoryPages = memoryPages
    }

    /// Whether a request may go to `host`.
    public func allows(host: String) -> Bool {
        allowedHosts.contains(host.lowercased())
    }
}
