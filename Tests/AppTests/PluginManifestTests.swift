import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing

/// The manifest's `plugins`: each a provider of its own name, checked like every other part of the manifest.
@Suite("Plugins in the manifest")
struct PluginManifestTests {
    /// The smallest module ABI v1 accepts: `memory`, `aggregate_alloc` (answers 1024) and `aggregate_run`
    /// (answers 0), assembled by hand so this target needs no WebAssembly tool.
    static let minimalModule: [UInt8] = [
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x0c, 0x02, 0x60, 0x01, 0x7f, 0x01, 0x7f, 0x60, 0x02, 0x7f,
        0x7f, 0x01, 0x7f, 0x03, 0x03, 0x02, 0x00, 0x01, 0x05, 0x03, 0x01, 0x00, 0x01, 0x07, 0x2c, 0x03, 0x06, 0x6d, 0x65,
        0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x0f, 0x61, 0x67, 0x67, 0x72, 0x65, 0x67, 0x61, 0x74, 0x65, 0x5f, 0x61, 0x6c,
        0x6c, 0x6f, 0x63, 0x00, 0x00, 0x0d, 0x61, 0x67, 0x67, 0x72, 0x65, 0x67, 0x61, 0x74, 0x65, 0x5f, 0x72, 0x75, 0x6e,
        0x00, 0x01, 0x0a, 0x0c, 0x02, 0x05, 0x00, 0x41, 0x80, 0x08, 0x0b, 0x04, 0x00, 0x41, 0x00, 0x0b,
    ]

    /// A manifest directory holding `plugins/p.wasm` (the minimal module) and `manifest.json`.
    static func load(_ json: String) throws(ManifestError) -> AppDIContainer {
        let folder: ScratchDirectory.Folder
        let url: URL
        do {
            folder = try ScratchDirectory.Folder("plugin-manifest")
            try folder.write("plugins/p.wasm", Data(minimalModule))
            url = try folder.write("manifest.json", json)
        } catch {
            throw ManifestError(path: "", "cannot write the test's files: \(error)")
        }
        return try AppDIContainer.load(manifestAt: url, registry: .test)
    }

    @Test("a declared plugin is a provider its sources name, listed beside the registered ones")
    func registered() throws {
        let container = try Self.load(#"""
            {"version": 1, "plugins": [{"name": "acme", "module": "plugins/p.wasm", "allowedHosts": ["api.acme.example"]}],
             "sources": [{"id": "a", "provider": "acme", "options": {"anything": [1, 2]}}]}
            """#)
        #expect(container.registry.names == ["echo", "search", "acme"])
        #expect(container.manifest.plugins.first?.allowedHosts == ["api.acme.example"])
        #expect(container.manifest.plugins.first?.module.lastPathComponent == "p.wasm")
    }

    @Test("a plugin may not take a registered provider's name, nor another plugin's")
    func names() {
        let json = #"""
            {"version": 1, "plugins": [{"name": "echo", "module": "plugins/p.wasm", "allowedHosts": []},
                                       {"name": "acme", "module": "plugins/p.wasm", "allowedHosts": []},
                                       {"name": "acme", "module": "plugins/p.wasm", "allowedHosts": []}],
             "sources": []}
            """#
        #expect(throws: ManifestError([
            ManifestProblem(path: "plugins[0].name", message: "'echo' is a built-in provider; choose another name"),
            ManifestProblem(path: "plugins[2].name", message: "'acme' is already declared by plugins[1]"),
        ])) { try Self.load(json) }
    }

    @Test("a source of an undeclared plugin is an unknown provider, and a missing module file is named")
    func missing() {
        #expect(problems(#"{"version": 1, "sources": [{"id": "a", "provider": "acme"}]}"#).first?
            .hasPrefix("sources[0].provider: unknown provider 'acme'") == true)
        let found = problems(#"""
            {"version": 1, "plugins": [{"name": "acme", "module": "nowhere/p.wasm", "allowedHosts": []}],
             "sources": [{"id": "a", "provider": "acme"}]}
            """#)
        #expect(found.contains { $0.hasPrefix("plugins[0].module: ") && $0.hasSuffix("nowhere/p.wasm: no such file") }, "\(found)")
        #expect(found.contains { $0.hasPrefix("sources[0].options: plugin 'acme': module cannot be read") }, "\(found)")
    }
}
