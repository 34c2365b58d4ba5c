import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession delegate behind `URLSessionHTTPClient`: gathers each task's body under the size cap
/// (stopping the transfer as soon as it is exceeded, rather than buffering a runaway body) and refuses
/// redirects that would carry a credential to another host.
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
        let overCap = tasks.withLock { tasks -> Bool in
            guard var state = tasks[dataTask.taskIdentifier], !state.tooLarge else { return false }
            if state.data.count + data.count > state.registration.maxBytes {
                state.tooLarge = true
                state.data = Data()
            } else {
                state.data.append(data)
            }
            tasks[dataTask.taskIdentifier] = state
            return state.tooLarge
        }
        if overCap { dataTask.cancel() }
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
        guard let state = tasks.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
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
