import Foundation
import ProviderTesting
@testable import Server
import Testing

/// docs/openapi.json is the API's contract: the server serves it, and it names exactly the `/api` routes the
/// router has, with their methods.
@Suite("serve: the OpenAPI document")
struct OpenAPIDocumentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let manifest = #"{"version": 1, "sources": [{"id": "notes", "provider": "files", "options": {"paths": ["data/notes.ndjson"]}}]}"#
    static let files = ["data/notes.ndjson": #"{"id": "n1", "title": "Note"}"# + "\n"]

    @Test("docs/openapi.json is the document the server serves, byte for byte")
    func repositoryCopy() throws {
        let kept = try Data(contentsOf: Self.repository.appendingPathComponent("docs/openapi.json"))
        #expect(kept == Data((OpenAPIDocument.json + "\n").utf8), "docs/openapi.json and OpenAPIDocument.swift differ")
    }

    @Test("every /api route of the router is in the document with its method, and the document has no other")
    func routesAndDocumentAgree() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        let routed = Set(harness.server.makeRouter().routes
            .filter { $0.path.description.hasPrefix("/api/") }
            .map { "\($0.method.rawValue) \($0.path.description)" })
        try await harness.stop()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, operations in
            operations.keys.filter { ["get", "put", "post", "delete", "patch", "head"].contains($0) }
                .map { "\($0.uppercased()) \(path)" }
        })
        #expect(!routed.isEmpty)
        #expect(routed.subtracting(documented).isEmpty, "routes missing from docs/openapi.json: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
    }

    @Test("GET /api/openapi.json serves it as JSON")
    func served() async throws {
        let harness = try await ServeHarness.start(manifest: Self.manifest, files: Self.files)
        let reply = try await harness.request("/api/openapi.json")
        try await harness.stop()
        #expect(reply.status == 200)
        #expect(reply.header("Content-Type") == "application/json")
        #expect(reply.text == OpenAPIDocument.json + "\n")
    }
}
