import Domain
import Foundation
import AcmeProvider
import ProviderTesting
import Testing

/// The contract every provider honours (ProviderTesting's conformance kit): option problems carry JSON
/// paths, failures map to the Domain taxonomy, the key is never printed, timeouts and the concurrency
/// limit are honoured, items have ids and stable field keys. Serialized: each check runs servers of its
/// own, and one at a time keeps the load off the timing of other suites.
@Suite("Acme provider conformance", .serialized)
struct AcmeConformanceTests {
    static let subject = ConformanceSubject.http(
        "acme", provider: AcmeProvider(), kind: .record, secrets: [apiKey],
        options: { baseURL in options(baseURL: baseURL) }, success: { try recordedResponse() })

    @Test("honours the provider contract", arguments: ConformanceCheck.allCases)
    func contract(_ check: ConformanceCheck) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.subject)
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }
}
