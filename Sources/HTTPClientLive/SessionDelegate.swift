import Foundation
import HTTPClient
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind `URLSessionHTTPClient`: gathers each task's body under the size cap
/// (reporting as soon as it is exceeded and discarding the rest, rather than buffering a runaway body) and
/// refuses redirects that would carry a credential to another host.
///
/// It never calls `URLSessionTask.cancel()`: in swift-corelibs-foundation a cancel that races the task's
/// own completion crashes the process ("Trying to access a behaviour for a task that in not in the
/// registry", seen under load in our tests). An abandoned transfer is left to end by itself at its
/// URLRequest timeout, and its late outcome is ignored.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case tooLarge
        case failure(any Error)
    }

    struct Registration: Sendable {
        var maxBytes: Int
        var carriesCredential: Bool
        var completion: @Sendable (Outcome) -> Void
    }

    private struct TaskState {
        var registration: Registration
        var data = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
        /// The outcome was delivered early (body over the cap); the task's own completion is ignored.
        var reported = false
    }

    private let tasks = Mutex<[Int: TaskState]>([:])

    /// Call before `resume()`.
    func register(_ task: URLSessionTask, _ registration: Registration) {
        tasks.withLock { $0[task.taskIdentifier] = TaskState(registration: registration) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allow = tasks.withLock { tasks -> Bool in
            guard var state = tasks[dataTask.taskIdentifier] else { return false }
            state.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(state.registration.maxBytes) { state.tooLarge = true }
            tasks[dataTask.taskIdentifier] = state
            return !state.tooLarge
        }
        completionHandler(allow ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overCap = tasks.withLock { tasks -> Registration? in
            guard var state = tasks[dataTask.taskIdentifier], !state.tooLarge else { return nil }
            if state.data.count + data.count > state.registration.maxBytes {
                state.tooLarge = true
                state.reported = true
                state.data = Data()
            } else {
                state.data.append(data)
            }
            tasks[dataTask.taskIdentifier] = state
            return state.tooLarge ? state.registration : nil
        }
        overCap?.completion(.tooLarge)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let carriesCredential = tasks.withLock { $0[task.taskIdentifier]?.registration.carriesCredential ?? true }
        let from = task.originalRequest?.url
        let to = request.url
        let sameOrigin = from?.host?.lowercased() == to?.host?.lowercased()
            && from?.scheme?.lowercased() == to?.scheme?.lowercased()
        // Not following hands the 3xx to the caller, which reports it instead of leaking the credential.
        completionHandler(!carriesCredential || sameOrigin ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }), !state.reported else { return }
        let outcome: Outcome
        if state.tooLarge {
            outcome = .tooLarge
        } else if let error {
            outcome = .failure(error)
        } else if let response = state.response ?? task.response as? HTTPURLResponse {
            outcome = .response(response, state.data)
        } else {
            outcome = .failure(URLError(.badServerResponse))
        }
        state.registration.completion(outcome)
    }
}
