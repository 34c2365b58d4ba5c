import Foundation

/// `Tests/<Name>ProviderTests/`: a test of the recorded response through the loopback server, a test of
/// option problems, the conformance suite, and a sample fixture with its `SOURCES.md`.
enum TestFileTemplate {
    static func providerTests(_ name: ProviderName, _ capability: Capability, _ template: CapabilityTemplate) -> String {
        #"""
        import Domain
        import Foundation
        import \#(name.targetName)
        import ProviderKit
        import ProviderTesting
        import Testing

        /// A made-up key: the tests prove it is sent, and the conformance suite that it is never printed.
        let apiKey = "test-key-\#(name.providerName)-5f3a9c0d1e2b"

        /// Options for a source reading from the loopback server at `baseURL`.
        func options(baseURL: URL) -> JSONValue {
            [\#(template.testOptions), "apiKey": .string(apiKey), "baseURL": .string(baseURL.absoluteString)]
        }

        /// The recorded response in `Fixtures/` (replace the sample with a real recording; see SOURCES.md).
        func recordedResponse() throws -> FixtureResponse {
            try .recorded("\#(template.fixtureName)", in: .module)
        }

        @Suite("\#(name.displayName) provider")
        struct \#(name.targetName)Tests {
            @Test("a recorded response becomes \#(capability.itemKind) items, in manifest order")
            func recordedResponseBecomesItems() async throws {
                let server = try await FixtureServer.start()
        \#(template.routes)
                let source = try \#(name.targetName)().makeSource(.testing(id: "\#(name.providerName)", options: options(baseURL: server.baseURL)))
                let report = await SourceRunner.run(source, id: "\#(name.providerName)", provider: "\#(name.providerName)")
                await server.stop()
                #expect(report.status == .ok, "\(report.error?.description ?? "")")
                #expect(report.warnings.isEmpty)
                #expect(report.items.map(\.id) == \#(template.expectedIDs))
                #expect(report.items.allSatisfy { $0.kind == .\#(capability.itemKind) })
        \#(template.requestExpectations)
                #expect(server.requests.allSatisfy { $0.header("Authorization") == "Bearer \(apiKey)" })
            }

            @Test("option problems are reported together, each with its JSON path")
            func optionProblems() {
                guard case .object(var bad) = options(baseURL: URL(string: "http://127.0.0.1:9")!) else { return }
                bad["\#(template.invalidKey)"] = \#(template.invalidValue)
                bad["maxRetries"] = 99
                do {
                    _ = try \#(name.targetName)().makeSource(.testing(options: .object(bad)))
                    Issue.record("the options were accepted")
                } catch {
                    #expect(Set(error.problems.map(\.path)) == ["\#(template.invalidPath)", "sources[0].options.maxRetries"])
                }
            }

            @Test("the name is lowercase and every option is documented")
            func documented() {
                let provider = \#(name.targetName)()
                #expect(provider.name == "\#(name.providerName)")
                #expect(provider.options.allSatisfy { !$0.help.isEmpty })
            }
        }

        """#
    }

    static func conformanceTests(_ name: ProviderName, _ capability: Capability) -> String {
        #"""
        import Domain
        import Foundation
        import \#(name.targetName)
        import ProviderTesting
        import Testing

        /// The contract every provider honours (ProviderTesting's conformance kit): option problems carry JSON
        /// paths, failures map to the Domain taxonomy, the key is never printed, timeouts and the concurrency
        /// limit are honoured, items have ids and stable field keys. Serialized: each check runs servers of its
        /// own, and one at a time keeps the load off the timing of other suites.
        @Suite("\#(name.displayName) provider conformance", .serialized)
        struct \#(name.typeName)ConformanceTests {
            static let subject = ConformanceSubject.http(
                "\#(name.providerName)", provider: \#(name.targetName)(), kind: .\#(capability.itemKind), secrets: [apiKey],
                options: { baseURL in options(baseURL: baseURL) }, success: { try recordedResponse() })

            @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
            func contract(_ check: ConformanceCheck) async throws {
                let violations = try await ProviderConformance.run(check, on: Self.subject)
                #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
            }
        }

        """#
    }

    static func fixtureSources(_ name: ProviderName, _ template: CapabilityTemplate) -> String {
        """
        # Fixture sources

        | file | where it comes from | license |
        |---|---|---|
        | `\(template.fixtureName)` | SAMPLE written by `new-provider`: it is not a real \(name.displayName) response | n/a |

        Replace the sample with a response recorded from the real service (or copied from a permissively
        licensed public repository), keep the file name or update the tests, and say here where it came from:
        repository, path, commit and license, or "recorded by NAME on DATE with `curl …`" (key removed).

        """
    }
}
