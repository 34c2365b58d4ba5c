import Domain
import Foundation

/// The one JSON object the host writes into a plugin's memory before calling `aggregate_run` or
/// `aggregate_check`:
///
///     {"abi": 1, "source": "acme-news", "options": {…}, "query": null, "since": null,
///      "credentials": ["token"], "allowedHosts": ["api.acme.example"],
///      "limits": {"fuel": 100000000000, "memoryPages": 256, "maxOutputBytes": 67108864, "timeoutSeconds": 10}}
///
/// `credentials` lists the names the source defines, never their values.
struct PluginInput {
    var sourceID: String
    var options: JSONObject
    var query: String?
    var credentialNames: [String]
    var declaration: PluginDeclaration
    var maxOutputBytes: Int
    var timeoutSeconds: Double

    var bytes: [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.key("abi"); writer.int(1)
        writer.key("source"); writer.string(sourceID)
        writer.key("options"); writer.value(.object(options))
        writer.key("query")
        if let query { writer.string(query) } else { writer.null() }
        // A source's `since` is its provider's option; the host keeps none of its own in ABI v1.
        writer.key("since"); writer.null()
        writer.key("credentials"); writer.value(.array(credentialNames.map(JSONValue.string)))
        writer.key("allowedHosts"); writer.value(.array(declaration.allowedHosts.map(JSONValue.string)))
        writer.key("limits")
        writer.beginObject()
        writer.key("fuel"); writer.int(Int(clamping: declaration.fuel))
        writer.key("memoryPages"); writer.int(declaration.memoryPages)
        writer.key("maxOutputBytes"); writer.int(maxOutputBytes)
        writer.key("timeoutSeconds"); writer.double(timeoutSeconds)
        writer.endObject()
        writer.endObject()
        return writer.bytes
    }
}
