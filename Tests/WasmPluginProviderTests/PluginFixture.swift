import Domain
import Foundation
import ProviderKit
import ProviderTesting
import WAT
import WasmPluginProvider

/// Plugins for the tests, written in WAT and assembled by WasmKit's WAT, and a way to run one as a source.
enum PluginFixture {
    /// A WAT string literal of `text`: every byte but letters and digits escaped, so JSON needs no care.
    static func literal(_ text: String) -> String {
        "\"" + text.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            return (byte < 0x80 && (CharacterSet.alphanumerics.contains(scalar) || byte == 0x20))
                ? String(Character(scalar)) : String(format: "\\%02x", byte)
        }.joined() + "\""
    }

    /// A module with the ABI's exports (alloc is a bump from 60,000; one page unless `pages`), the given imports,
    /// data at fixed offsets and `run`'s body (it must leave an i32).
    static func module(
        imports: [String] = [], data: [(offset: Int, text: String)] = [], run: String, pages: Int = 2, extra: String = ""
    ) -> String {
        """
        (module
          \(imports.joined(separator: "\n  "))
          (memory (export "memory") \(pages))
          \(data.map { "(data (i32.const \($0.offset)) \(literal($0.text)))" }.joined(separator: "\n  "))
          (func (export "aggregate_alloc") (param i32) (result i32) (i32.const 60000))
          (func (export "aggregate_run") (param $ptr i32) (param $len i32) (result i32)
            \(run))
          \(extra)
        )
        """
    }

    static let emitImport = #"(import "aggregate_v1" "emit" (func $emit (param i32 i32)))"#

    /// A module that emits `messages` (at offsets from 1,000) and returns `code`.
    static func emitting(_ messages: [String], code: Int32 = 0) -> String {
        var offset = 1_000
        var data: [(Int, String)] = []
        var calls = ""
        for message in messages {
            data.append((offset, message))
            calls += "(call $emit (i32.const \(offset)) (i32.const \(message.utf8.count)))\n    "
            offset += message.utf8.count + 8
        }
        return module(imports: [emitImport], data: data, run: calls + "(i32.const \(code))")
    }

    /// The module assembled into a file of its own.
    static func write(_ wat: String, name: String = "plugin") throws -> URL {
        let bytes = try wat2wasm(wat)
        let directory = try ScratchDirectory.make("plugins")
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString).wasm")
        try Data(bytes).write(to: url)
        return url
    }

    static func provider(
        _ wat: String, name: String = "hostile", allowedHosts: [String] = [], fuel: UInt64 = PluginDeclaration.defaultFuel,
        memoryPages: Int = PluginDeclaration.defaultMemoryPages, modules: PluginModuleCache = PluginModuleCache()
    ) throws -> WasmPluginProvider {
        WasmPluginProvider(
            PluginDeclaration(name: name, module: try write(wat), allowedHosts: allowedHosts, fuel: fuel, memoryPages: memoryPages),
            modules: modules)
    }

    /// Runs one source of `provider` the way the engine does and returns its report.
    static func run(
        _ provider: WasmPluginProvider, options: JSONValue = [:], timeoutSeconds: Double = SourceRunner.roomyTimeout,
        state: (any PluginStateStoring)? = nil
    ) async throws -> SourceReport {
        var configuration = SourceConfiguration.testing(options: options, timeoutSeconds: timeoutSeconds)
        configuration.services[PluginStateStoreKey.self] = state
        let source = try provider.makeSource(configuration)
        return await SourceRunner.run(source, provider: provider.name, timeoutSeconds: timeoutSeconds)
    }
}
