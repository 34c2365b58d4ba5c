import Crypto
import Domain
import Foundation
import HTTPClient
import ProviderKit
import WasmPluginProvider

/// The fingerprint of what a source fetches: its stored identity beside its id (`SourceIdentity`).
///
/// The SHA-256 of a canonical text: the provider's name, then every option that changes what is fetched
/// (`OptionSpec.Identity.value` and `.local`), resolved (`${VAR}` substituted), keys sorted, numbers in JSON form; and the manifest's directory when an option names local things. Options that only change how
/// the source fetches (`.tuning`: retries, timeouts, caps, item counts) are left out, so changing them keeps
/// the history. Credentials take part like any option, but only inside the hash: a fingerprint shows
/// nothing of them, and two users' keys never share stored data.
enum SourceFingerprint {
    static func make(provider: any Provider, options: JSONValue, baseDirectory: URL) -> String {
        let roles = Dictionary(provider.options.map { ($0.name, $0.identity) }, uniquingKeysWith: { first, _ in first })
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("provider")
        writer.string(provider.name)
        writer.key("options")
        writer.beginObject()
        var local = false
        for (name, value) in (options.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let role = roles[name] ?? .value
            if role == .tuning { continue }
            if role == .local { local = true }
            writer.key(name)
            canonical(value, into: &writer)
        }
        writer.endObject()
        // A plugin's module is part of what its sources fetch: a new build is a new identity.
        if let plugin = provider as? WasmPluginProvider {
            writer.key("module")
            writer.string(plugin.moduleDigest ?? "unreadable")
        }
        if local {
            writer.key("directory")
            writer.string(baseDirectory.standardizedFileURL.path)
        }
        writer.endObject()
        let digest = SHA256.hash(data: Data(writer.bytes))
        return digest.withUnsafeBytes { $0.prefix(16).hexDigits }
    }

    private static func canonical(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .object(let members):
            writer.beginObject()
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                writer.key(key)
                canonical(member, into: &writer)
            }
            writer.endObject()
        case .array(let values):
            writer.beginArray()
            for element in values { canonical(element, into: &writer) }
            writer.endArray()
        case .string(let text): writer.string(text)
        case .int(let number): writer.int(number)
        case .double(let number): writer.double(number)
        case .bool(let flag): writer.bool(flag)
        case .null: writer.null()
        }
    }
}
