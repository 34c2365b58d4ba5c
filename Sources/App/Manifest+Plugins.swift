import Domain
import Foundation
import ProviderKit
import WasmPluginProvider

/// `"plugins": [{"name": "acme", "module": "plugins/acme.wasm", "allowedHosts": ["api.acme.example"], "fuel": …,
/// "memoryPages": …}]`: WebAssembly modules that serve sources as providers of their own name (docs/PLUGINS.md).
extension ManifestLoader {
    static let pluginKeys = ["name", "module", "allowedHosts", "fuel", "memoryPages"]

    /// The declared plugins, every problem reported with its path; `builtIn` are the names a plugin may not take.
    static func plugins(
        _ value: JSONValue?, builtIn: [String], baseDirectory: URL, report problem: (String, String) -> Void
    ) -> [PluginDeclaration] {
        guard let value else { return [] }
        guard case .array(let entries) = value else {
            problem("plugins", "expected an array, found \(value.typeName)")
            return []
        }
        var plugins: [PluginDeclaration] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "plugins[\(index)]"
            guard case .object(let object) = entry else {
                problem(path, "expected an object, found \(entry.typeName)")
                continue
            }
            checkKeys(object, allowed: pluginKeys, path: path, report: problem)
            var valid = true
            let name = object["name"]?.stringValue ?? ""
            if object["name"] == nil {
                problem("\(path).name", "required: the provider name its sources use")
                valid = false
            } else if !isValidID(name) {
                problem("\(path).name", "expected lowercase letters, digits and '-', found \(object["name"]!.compactJSON)")
                valid = false
            } else if builtIn.contains(name) {
                problem("\(path).name", "'\(name)' is a built-in provider; choose another name")
                valid = false
            } else if let first = seen[name] {
                problem("\(path).name", "'\(name)' is already declared by plugins[\(first)]")
                valid = false
            } else {
                seen[name] = index
            }
            var module = baseDirectory
            if let text = object["module"]?.stringValue, !text.isEmpty {
                let expanded = (text as NSString).expandingTildeInPath
                module = expanded.hasPrefix("/") ? URL(fileURLWithPath: expanded).standardizedFileURL
                    : baseDirectory.appendingPathComponent(expanded).standardizedFileURL
                if !FileManager.default.isReadableFile(atPath: module.path) {
                    let reason = FileManager.default.fileExists(atPath: module.path) ? "cannot be read" : "no such file"
                    problem("\(path).module", "\(module.path): \(reason)")
                }
            } else {
                problem("\(path).module", "required: the path of the .wasm file, relative to the manifest")
                valid = false
            }
            var hosts: [String] = []
            switch object["allowedHosts"] {
            case nil:
                problem("\(path).allowedHosts", "required: the hosts its HTTP requests may reach ([] for none)")
                valid = false
            case .array(let values)?:
                for (position, host) in values.enumerated() {
                    if let text = host.stringValue, !text.isEmpty, !text.contains("/"), !text.contains(":"), !text.contains("*") {
                        hosts.append(text)
                    } else {
                        problem("\(path).allowedHosts[\(position)]", "expected a host name such as api.example.com (no scheme, port or wildcard), found \(host.compactJSON)")
                    }
                }
            case let other?:
                problem("\(path).allowedHosts", "expected an array of host names, found \(other.typeName)")
                valid = false
            }
            var fuel = PluginDeclaration.defaultFuel
            if let written = object["fuel"] {
                if case .int(let number) = written, number >= 1 { fuel = UInt64(number) } else {
                    problem("\(path).fuel", "expected a positive integer (operators one run may execute), found \(written.compactJSON)")
                }
            }
            var pages = PluginDeclaration.defaultMemoryPages
            if let written = object["memoryPages"] {
                if case .int(let number) = written, (1...PluginDeclaration.maxMemoryPages).contains(number) { pages = number } else {
                    problem("\(path).memoryPages",
                            "expected an integer from 1 to \(PluginDeclaration.maxMemoryPages) (64 KiB pages), found \(written.compactJSON)")
                }
            }
            if valid {
                plugins.append(PluginDeclaration(name: name, module: module, allowedHosts: hosts, fuel: fuel, memoryPages: pages))
            }
        }
        return plugins
    }
}

extension ProviderRegistry {
    /// This registry with a provider for each plugin (a plugin never replaces a provider of the same name).
    public func adding(plugins: [PluginDeclaration]) -> ProviderRegistry {
        let extra = plugins.filter { provider(named: $0.name) == nil }.map { WasmPluginProvider($0) as any Provider }
        return extra.isEmpty ? self : ProviderRegistry(providers + extra)
    }
}
