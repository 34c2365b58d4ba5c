import Foundation

/// A WebAssembly plugin in C (`aggregate new-provider --wasm NAME`, docs/PLUGINS.md): its source, the ABI header, a
/// build script (the Swift toolchain's clang `--target=wasm32-wasi` with Debian's wasi-libc), a manifest that
/// declares and uses it, and a test script that builds it and runs it through `aggregate`.
///
/// Everything lands in one folder of its own, which builds outside this repository.
public struct WasmPluginScaffold: Sendable {
    /// The provider name sources use, and the module's file name.
    public let name: String

    public init(name: String) throws(ScaffoldError) {
        guard Self.isValidName(name) else { throw .invalidProviderName(name) }
        self.name = name
    }

    /// A plugin's name, as the manifest's `plugins[].name` takes it: lowercase letters and digits in words joined by
    /// hyphens, starting with a letter.
    public static func isValidName(_ name: String) -> Bool {
        let words = name.split(separator: "-", omittingEmptySubsequences: false)
        return !name.isEmpty && name.count <= 64 && name.first!.isLowercaseASCIILetter
            && words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercaseASCIILetter || $0.isASCIIDigit } }
    }

    /// The files, relative to the plugin's folder. The scripts are written executable.
    public var files: [GeneratedFile] {
        [
            GeneratedFile(path: "\(name).c", contents: WasmPluginTemplate.source(name)),
            GeneratedFile(path: PluginHeaderTemplate.fileName, contents: PluginHeaderTemplate.contents),
            GeneratedFile(path: "build.sh", contents: WasmPluginTemplate.buildScript(name)),
            GeneratedFile(path: "test.sh", contents: WasmPluginTemplate.testScript(name)),
            GeneratedFile(path: "manifest.json", contents: WasmPluginTemplate.manifest(name)),
            GeneratedFile(path: ".gitignore", contents: "*.wasm\n"),
        ]
    }

    /// What to do next, printed after the files are written.
    public func nextSteps(directory: String) -> String {
        """
        Next steps:
          1. Install the C library for wasm32 once (the Swift toolchain's clang has the target):
                 sudo apt install wasi-libc
          2. Build it and run its test (the test runs `aggregate`; AGGREGATE=/path/to/aggregate to choose one):
                 \(directory)/test.sh
          3. Make it yours: edit \(directory)/\(name).c (aggregate_check for its options, aggregate_run for its items),
             and allow the hosts it fetches from in manifest.json's plugins[].allowedHosts.
          4. In your own manifest:
                 "plugins": [{"name": "\(name)", "module": "\(directory)/\(name).wasm", "allowedHosts": []}]
                 "sources": [{"id": "\(name)", "provider": "\(name)", "options": {"count": 3}}]
             The ABI, the bounds and the errors: docs/PLUGINS.md.
        """
    }

    /// Writes the files into `directory` (made if missing), refusing a directory that already holds any of them.
    /// Returns the paths written, relative to it.
    @discardableResult
    public func write(into directory: URL) throws(ScaffoldError) -> [String] {
        let fileManager = FileManager.default
        for file in files where fileManager.fileExists(atPath: directory.appendingPathComponent(file.path).path) {
            throw .fileExists(directory.appendingPathComponent(file.path).path)
        }
        let written = try GeneratedFile.write(files, into: directory)
        for script in ["build.sh", "test.sh"] {
            let path = directory.appendingPathComponent(script).path
            do {
                try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            } catch {
                throw .writeFailed(script, (error as NSError).localizedDescription)
            }
        }
        return written
    }
}

extension Character {
    fileprivate var isLowercaseASCIILetter: Bool { ("a"..."z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
