import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Logging
import ProviderTesting

/// A key that must never show up in any output.
let secretKey = "SECRETkey0123456789abcdef"

func fixture(_ name: String) throws -> URL {
    guard let url = Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil) else {
        throw CocoaError(.fileNoSuchFile)
    }
    return url
}

/// A client with short backoff so retry tests stay quick, and a roomy request timeout so a loaded machine
/// only makes them slower.
func makeClient(
    connections: Int = 4, requestTimeout: TimeInterval = SourceRunner.roomyTimeout, maxRetries: Int = 2,
    maxResponseBytes: Int = HTTPClientConfiguration.defaultMaxResponseBytes, logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
) -> CurlHTTPClient {
    CurlHTTPClient(configuration: HTTPClientConfiguration(
        maxConnectionsPerHost: connections, requestTimeout: requestTimeout, maxResponseBytes: maxResponseBytes,
        retry: RetryPolicy(maxRetries: maxRetries, baseDelay: 0.05, maxDelay: 0.2), logger: logger, sourceID: "test"))
}

/// A token that will be cancelled at its deadline, as the aggregate use case does.
func deadlineToken(_ seconds: Double) -> CancellationToken {
    let token = CancellationToken(deadline: .now() + seconds)
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { token.cancel() }
    return token
}

extension HTTPFetching {
    func fetch(_ request: HTTPRequest, cancellation: CancellationToken = deadlineToken(SourceRunner.roomyTimeout)) async -> Result<HTTPResponse, SourceError> {
        await withCheckedContinuation { continuation in
            fetch(request, cancellation: cancellation) { continuation.resume(returning: $0) }
        }
    }

    func send(
        _ request: HTTPRequest, cancellation: CancellationToken = deadlineToken(SourceRunner.roomyTimeout),
        serviceMessage: @escaping @Sendable (HTTPResponse) -> String? = { _ in nil }
    ) async -> Result<HTTPResponse, SourceError> {
        await withCheckedContinuation { continuation in
            send(request, cancellation: cancellation, serviceMessage: serviceMessage) { continuation.resume(returning: $0) }
        }
    }
}

extension Result {
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

func elapsed(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}
