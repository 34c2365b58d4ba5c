/// Polls `condition` every 10 ms until it holds, for at most `seconds`; generous, so a slow machine only makes
/// a test slower. For events a test cannot be told about (a server saw a request, a renderer drew).
public func eventually(within seconds: Double = 30, _ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<Int(seconds * 100) {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}
