import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a finished process printed and how it exited.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }
}

/// Runs a program to completion from a test without blocking Swift concurrency: the blocking parts (pipe
/// reads, waiting for exit) run on threads of their own. On Linux the concurrency pool is Dispatch's global
/// threads, which also run the in-process fixture servers; blocking one starves them.
public enum ProcessRunner {
    /// - Parameter whileRunning: called with the pid once the process runs (to signal it); the run then waits
    ///   for the exit as usual. If it throws, the process is terminated and the error rethrown.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String],
        whileRunning: (pid_t) async throws -> Void = { _ in }
    ) async throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputHandle = stdout.fileHandleForReading, errorHandle = stderr.fileHandleForReading
        async let out = onOwnThread { outputHandle.readDataToEndOfFile() }
        async let err = onOwnThread { errorHandle.readDataToEndOfFile() }
        do {
            try await whileRunning(process.processIdentifier)
        } catch {
            process.terminate()
            _ = await (out, err)
            throw error
        }
        let (outData, errData) = await (out, err)
        let status = await onOwnThread {
            process.waitUntilExit()
            return process.terminationStatus
        }
        return ProcessResult(
            status: status, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// Whether any process of the process group `pgid` exists: `kill(-pgid, 0)` fails with ESRCH only when none
/// does (a zombie not yet reaped still counts). What a test checks to prove a program and all it started are
/// gone, by process group rather than by name.
public func processGroupExists(_ pgid: pid_t) -> Bool {
    kill(-pgid, 0) == 0 || errno != ESRCH
}
