import Foundation
import ProviderScaffold
import ProviderTesting
import Testing

/// `aggregate new-provider --wasm NAME`'s files; WasmPluginScaffoldEndToEndTests (aggregateTests) builds and runs one.
@Suite("WebAssembly plugin scaffold")
struct WasmPluginScaffoldTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("a plugin name is the manifest's: lowercase words of letters and digits joined by hyphens",
          arguments: [("acme", true), ("acme-news2", true), ("a", true), ("Acme", false), ("acme_news", false),
                      ("-acme", false), ("acme-", false), ("acme--news", false), ("2acme", false), ("", false)])
    func names(name: String, valid: Bool) {
        #expect(WasmPluginScaffold.isValidName(name) == valid)
        #expect(((try? WasmPluginScaffold(name: name)) != nil) == valid, "\(name)")
    }

    @Test("the scaffold's header is the ABI header the examples build with, byte for byte")
    func headerIsTheExamples() throws {
        let scaffold = try WasmPluginScaffold(name: "acme")
        let header = try #require(scaffold.files.first { $0.path == "aggregate.h" })
        let examples = try String(contentsOf: Self.root.appendingPathComponent("Examples/plugins/include/aggregate.h"), encoding: .utf8)
        #expect(header.contents == examples)
    }

    @Test("the source, scripts and manifest name the plugin, and the manifest is JSON that declares and uses it")
    func filesNameThePlugin() throws {
        let files = Dictionary(uniqueKeysWithValues: try WasmPluginScaffold(name: "acme-news").files.map { ($0.path, $0.contents) })
        #expect(Set(files.keys) == ["acme-news.c", "aggregate.h", "build.sh", "test.sh", "manifest.json", ".gitignore"])
        #expect(files["acme-news.c"]?.contains(#"AGGREGATE_EXPORT("aggregate_run")"#) == true)
        #expect(files["build.sh"]?.contains("--target=wasm32-wasi") == true)
        #expect(files["build.sh"]?.contains(#""$here/acme-news.c""#) == true)
        let manifestText = try #require(files["manifest.json"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(manifestText.utf8)) as? [String: Any])
        let plugin = try #require((manifest["plugins"] as? [[String: Any]])?.first)
        #expect(plugin["name"] as? String == "acme-news" && plugin["module"] as? String == "acme-news.wasm")
        #expect((manifest["sources"] as? [[String: Any]])?.first?["provider"] as? String == "acme-news")
        for (path, contents) in files {
            #expect(!contents.contains("\\#("), "\(path): an unfilled template marker")
        }
    }

    @Test("it writes executable scripts into a new folder, and refuses to overwrite a file there")
    func writesAndRefuses() throws {
        let directory = try ScratchDirectory.make("wasm-scaffold").appendingPathComponent("acme")
        let scaffold = try WasmPluginScaffold(name: "acme")
        let written = try scaffold.write(into: directory)
        #expect(written.contains("acme.c"))
        let permissions = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("test.sh").path)[.posixPermissions] as? Int
        #expect(permissions == 0o755)
        #expect(throws: ScaffoldError.fileExists(directory.appendingPathComponent("acme.c").path)) {
            try scaffold.write(into: directory)
        }
    }
}
