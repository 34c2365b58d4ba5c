@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("The reader apps' account")
struct ReaderAccountTests {
    /// The account `manifest` gives, its password read as the server reads it.
    private func account(_ manifest: String, environment: [String: String] = [:], files: [String: String] = [:]) async throws -> Result<ReaderAccount?, SourceError> {
        let directory = ScratchDirectory.path("aggregate-reader-account")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        }
        let url = directory.appendingPathComponent("manifest.json")
        try Data(manifest.utf8).write(to: url)
        let container = try AppDIContainer.load(manifestAt: url, registry: .test, environment: environment)
        return await withCheckedContinuation { continuation in
            container.readerAccount { continuation.resume(returning: $0) }
        }
    }

    @Test("a ${VAR} password is read from the environment; tokens are derived from it and never show it")
    func variable() async throws {
        let result = try await account(
            #"{"version": 1, "sources": [], "reader": {"username": "ann", "password": "${READER_PASSWORD}"}}"#,
            environment: ["READER_PASSWORD": "s3cret-pass"])
        let account = try #require(try result.get())
        #expect(account.accepts(username: "ann", password: "s3cret-pass"))
        #expect(!account.accepts(username: "ann", password: "s3cret-pas"))
        #expect(!account.accepts(username: "bob", password: "s3cret-pass"))
        // md5("ann:s3cret-pass"), from Python's hashlib.
        #expect(account.feverAPIKey == "54b198a6655ee9d3ed851d8e6596d8bc")
        #expect(account.accepts(feverAPIKey: account.feverAPIKey.uppercased()))
        #expect(account.accepts(authToken: account.authToken))
        #expect(!account.authToken.contains("s3cret"))
        #expect(!"\(account)".contains("s3cret"), "its description names the user only")
        #expect(ReaderAccount(username: "ann", password: "other").authToken != account.authToken, "a new password, a new token")
    }

    @Test("a password from a file is read; a variable that is not set is an error naming it, not the value")
    func references() async throws {
        let fromFile = try await account(
            #"{"version": 1, "sources": [], "reader": {"username": "ann", "password": {"fromFile": "pw"}}}"#,
            files: ["pw": "from-file\n"])
        #expect(try fromFile.get()?.accepts(username: "ann", password: "from-file") == true)
        let missing = try await account(#"{"version": 1, "sources": [], "reader": {"username": "ann", "password": "${NOT_SET_HERE}"}}"#)
        guard case .failure(let error) = missing else { Issue.record("expected a failure"); return }
        #expect(error.message.contains("$NOT_SET_HERE"))
        let none = try await account(#"{"version": 1, "sources": []}"#)
        #expect(try none.get() == nil)
    }
}
