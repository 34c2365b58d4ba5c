import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import ProviderKit
import ProviderTesting
import Testing

/// A provider that breaks every rule the conformance kit checks: it reads options without validating them,
/// fires every request at once, reports every failure as `network` with the key in the message and the
/// log, and invents ids and field keys on each run.
private struct CarelessProvider: Provider {
    var name: String { "careless" }
    var summary: String { "breaks the contract on purpose" }
    var options: [OptionSpec] {
        [OptionSpec("units", "array of strings", required: true, help: "what to fetch"),
         OptionSpec("apiKey", "string", help: "a key"), OptionSpec("baseURL", "string", help: "where")]
    }

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let units = configuration.options["units"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let apiKey = configuration.options["apiKey"]?.stringValue ?? ""
        let baseURL = configuration.options["baseURL"]?.stringValue.flatMap(URL.init(string:)) ?? URL(string: "http://127.0.0.1:9")!
        configuration.logger.info("starting with key \(apiKey)")
        let client = CurlHTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 16, retry: RetryPolicy(maxRetries: 0)))
        return CarelessSource(units: units, apiKey: apiKey, baseURL: baseURL, client: client)
    }
}

private struct CarelessSource: ItemSource {
    let units: [String]
    let apiKey: String
    let baseURL: URL
    let client: CurlHTTPClient

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        let group = DispatchGroup()
        for unit in units {
            group.enter()
            client.fetch(.get(baseURL, path: "/careless", query: [URLQueryItem(name: "unit", value: unit)]),
                         cancellation: context.cancellation) { result in
                if case .success(let response) = result, response.isSuccess {
                    receiver.emit([Item(kind: .record, id: UUID().uuidString, title: unit, fields: ["Field \(Int.random(in: 0...9999))": 1])])
                } else {
                    receiver.fail(SourceError(.network, "request failed for key \(apiKey)"))
                }
                group.leave()
            }
        }
        group.notify(queue: .global()) { receiver.finish() }
    }
}

/// A provider that walks its units one after another and ignores its deadline: each request gets a token of its
/// own, so a timed-out source goes on fetching.
private struct StubbornProvider: Provider {
    var name: String { "stubborn" }
    var summary: String { "ignores its deadline on purpose" }
    var options: [OptionSpec] {
        [OptionSpec("units", "array of strings", required: true, help: "what to fetch"),
         OptionSpec("baseURL", "string", help: "where")]
    }

    func makeSource(_ configuration: SourceConfiguration) throws(ManifestError) -> any ItemSource {
        let units = configuration.options["units"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let baseURL = configuration.options["baseURL"]?.stringValue.flatMap(URL.init(string:)) ?? URL(string: "http://127.0.0.1:9")!
        return StubbornSource(units: units, baseURL: baseURL, client: CurlHTTPClient(configuration: HTTPClientConfiguration()))
    }
}

private struct StubbornSource: ItemSource {
    let units: [String]
    let baseURL: URL
    let client: CurlHTTPClient

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        fetch(units[...], into: receiver)
    }

    private func fetch(_ left: ArraySlice<String>, into receiver: ItemReceiver) {
        guard let unit = left.first else { return receiver.finish() }
        client.fetch(.get(baseURL, path: "/stubborn", query: [URLQueryItem(name: "unit", value: unit)]),
                     cancellation: CancellationToken()) { _ in
            receiver.emit([Item(kind: .record, id: unit, title: unit)])
            fetch(left.dropFirst(), into: receiver)
        }
    }
}

@Suite("Provider conformance kit", .serialized)
struct ProviderConformanceTests {
    static let key = "careless-key-0123456789"

    static let careless = ConformanceSubject.http(
        "careless", provider: CarelessProvider(), kind: .record, secrets: [key],
        options: { baseURL in ["units": ["a", "b", "c", "d", "e", "f"], "apiKey": .string(key), "baseURL": .string(baseURL.absoluteString)] },
        success: { .json(#"{"ok": true}"#) })

    @Test("a provider that breaks the contract is caught by every check", arguments: [
        (ConformanceCheck.optionPaths, "unknown option: accepted"),
        (.errorTaxonomy, "HTTP fault unauthorized401: network"),
        (.secrecy, "a secret is printed"),
        (.boundedConcurrency, "requests were in flight at once with concurrency 2"),
        (.stableItems, "the ids differ between runs"),
    ])
    func carelessProviderFails(check: ConformanceCheck, expected: String) async throws {
        let violations = try await ProviderConformance.run(check, on: Self.careless)
        #expect(violations.contains { $0.contains(expected) }, "\(violations)")
        #expect(!violations.contains { $0.contains(Self.key) }, "a violation must not print the secret itself")
    }

    @Test("a source that goes on fetching after its deadline fails the timeout check")
    func stubbornProviderFails() async throws {
        let stubborn = ConformanceSubject.http(
            "stubborn", provider: StubbornProvider(), kind: .record,
            options: { baseURL in ["units": ["a", "b", "c", "d"], "baseURL": .string(baseURL.absoluteString)] },
            success: { .json(#"{"ok": true}"#) })
        let violations = try await ProviderConformance.run(.timeout, on: stubborn)
        // Both stalls: the first request is cut at the deadline, and the next ones still go out.
        #expect(violations.filter { $0.contains("request(s) started after the deadline") }.count == 2, "\(violations)")
        #expect(!violations.contains { $0.contains("waited for it") }, "\(violations)")
    }

    @Test("a check that cannot apply is a violation, not a silent pass")
    func notApplicable() async throws {
        let local = ConformanceSubject.local(
            "careless", provider: CarelessProvider(), kind: .record, options: ["units": ["a"]],
            baseDirectory: URL(fileURLWithPath: "/"))
        #expect(try await ProviderConformance.run(.timeout, on: local).first?.contains("no stalledOptions") == true)
        #expect(try await ProviderConformance.run(.boundedConcurrency, on: local).first?.contains("only HTTP subjects") == true)
        #expect(try await ProviderConformance.run(.secrecy, on: local).first?.contains("no secrets given") == true)
    }

    @Test("the fallback route answers any path no route matches, in turn, repeating the last")
    func fallback() async throws {
        let server = try await FixtureServer.start()
        server.route("/known", .json(#"{"route": true}"#))
        server.fallback(.json("1"), .json("2"))
        let client = CurlHTTPClient(configuration: HTTPClientConfiguration())
        var bodies: [String] = []
        for path in ["/a", "/known", "/b/c", "/d"] {
            let response = try await withCheckedThrowingContinuation { continuation in
                client.fetch(.get(server.baseURL, path: path), cancellation: CancellationToken()) { continuation.resume(with: $0) }
            }
            bodies.append(response.text)
        }
        await server.stop()
        #expect(bodies == ["1", #"{"route": true}"#, "2", "2"])
    }
}
