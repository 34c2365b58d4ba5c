import App
import Domain
import Foundation
import ProviderKit
import ProviderTesting

/// A provider with a small option schema, so App's validation can be tested without real providers.
struct EchoProvider: Provider {
    var name = "echo"
    var summary = "Echoes its options as one record."
    var acceptsQuery = false
    var options: [OptionSpec] = [
        OptionSpec("cities", "array of strings", required: true, help: "Cities."),
        OptionSpec("units", "standard|metric|imperial", default: "metric", help: "Units."),
        OptionSpec("apiKey", "string", help: "Key."),
        OptionSpec("path", "string", help: "A file."),
    ]

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let reader = OptionsReader(configuration, specs: options)
        let cities = reader.require("cities", as: [String].self) ?? []
        let units = reader.value("units", as: UnitSystem.self) ?? .metric
        let apiKey = reader.value("apiKey", as: String.self)
        let path = reader.value("path", as: String.self).map(configuration.resolvePath)
        try reader.finish()
        var fields: JSONObject = ["cities": .array(cities.map(JSONValue.string)), "units": .string(units.rawValue)]
        fields["apiKey"] = apiKey.map(JSONValue.string)
        fields["path"] = path.map { .string($0.path) }
        fields["query"] = configuration.query.map(JSONValue.string)
        return EchoSource(item: Item(kind: .record, id: configuration.id, title: configuration.id, fields: fields))
    }
}

struct EchoSource: ItemSource {
    let item: Item

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        receiver.emit([item])
        receiver.finish()
    }
}

extension ProviderRegistry {
    static let test = ProviderRegistry([EchoProvider(), EchoProvider(name: "search", acceptsQuery: true)])
}

extension EchoProvider {
    init(name: String, acceptsQuery: Bool) {
        self.name = name
        self.acceptsQuery = acceptsQuery
    }
}

/// Writes a manifest into a fresh temporary directory and loads it.
func container(
    _ json: String, environment: [String: String] = [:], registry: ProviderRegistry = .test
) throws(ManifestError) -> AppDIContainer {
    let directory = ScratchDirectory.path("aggregate-app")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("manifest.json")
    try? Data(json.utf8).write(to: url)
    return try AppDIContainer.load(manifestAt: url, registry: registry, environment: environment)
}

/// The problems a manifest produces, as `path: message` lines.
func problems(_ json: String) -> [String] {
    do throws(ManifestError) {
        _ = try container(json)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}
