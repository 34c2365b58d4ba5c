import Foundation
import ProviderTesting

/// Checks documents against a JSON Schema with a real validator: python's `jsonschema` (Draft202012Validator),
/// which `.ci/run` installs. The schema itself is checked against the draft's metaschema first.
enum JSONSchemaCheck {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let script = """
        import json, sys
        import jsonschema
        with open(sys.argv[1], encoding="utf-8") as handle:
            request = json.load(handle)
        jsonschema.Draft202012Validator.check_schema(request["schema"])
        validator = jsonschema.Draft202012Validator(request["schema"])
        json.dump([["%s: %s" % ("/".join(str(p) for p in error.absolute_path), error.message)
                    for error in validator.iter_errors(document)] for document in request["documents"]], sys.stdout)
        """

    /// Each document's errors (empty: valid), in order.
    static func errors(schema: String, documents: [String]) async throws -> [[String]] {
        let request = "{\"schema\": \(schema), \"documents\": [\(documents.joined(separator: ",\n"))]}"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-check-\(UUID().uuidString).json")
        try Data(request.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, file.path],
            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            throw Failure(description: """
                the jsonschema check failed (\(result.status)): \(result.stderr)
                It needs python3 with jsonschema 4 or later: `python3 -m pip install jsonschema` (.ci/run installs it).
                """)
        }
        return try JSONDecoder().decode([[String]].self, from: Data(result.stdout.utf8))
    }
}
