import Foundation

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
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]
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
        let (outData, errData) = await (out, err)
        let status = await onOwnThread {
            process.waitUntilExit()
            return process.terminationStatus
        }
        return ProcessResult(
            status: status, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }
}
