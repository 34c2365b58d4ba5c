import Domain
import Foundation
import HTTPClient
import HTTPClientLive
import Processes
import ProviderKit

/// `aggregate doctor`'s lines about one source (see `Doctor`).
struct SourceDoctor {
    let container: AppDIContainer
    let source: Manifest.Source
    let doctor: Doctor

    var id: String { source.id }
    var environment: [String: String] { doctor.environment }

    func checks() -> [DoctorCheck] {
        let resolved = container.resolved(source)
        let variables = resolved.missing.map { "$\($0)" }.joined(separator: ", ")
        guard source.enabled else {
            guard !resolved.missing.isEmpty else {
                return [DoctorCheck(.skipped, id, "disabled (\(source.provider))", fix: "enable it, or run it with --sources \(id)")]
            }
            return [DoctorCheck(
                .skipped, id, "disabled (\(source.provider)); needs \(variables)",
                fix: "set \(resolved.missing.joined(separator: ", ")), then enable it or run it with --sources \(id)")]
        }
        if !resolved.missing.isEmpty {
            return [DoctorCheck(
                .failed, id, "needs \(variables), which is not set",
                fix: "export \(resolved.missing.map { "\($0)=…" }.joined(separator: " ")), or set \"enabled\": false")]
        }
        var checks: [DoctorCheck] = []
        let references = resolved.references
        for (name, reference) in references.references.sorted(by: { $0.key < $1.key }) {
            checks.append(secretCheck(name, reference))
        }
        checks += execChecks(resolved.value)
        checks += httpChecks(resolved)
        if checks.isEmpty { checks.append(DoctorCheck(.passed, id, "ready (\(source.provider))")) }
        return checks
    }

    /// A reference is checked where it is (a file's presence and mode, a helper's program); neither is read or run.
    private func secretCheck(_ name: String, _ reference: SecretReference) -> DoctorCheck {
        switch reference {
        case .file(let path):
            let url = SecretReference.resolve(path, baseDirectory: container.manifest.baseDirectory, environment: environment)
            var status = stat()
            guard stat(url.path, &status) == 0 else {
                return DoctorCheck(.failed, id, "\(name): secret file \(url.path) does not exist",
                                   fix: "write the secret there (one line), then chmod 600 \(url.path)")
            }
            let mode = status.st_mode & 0o777
            guard mode & 0o044 == 0 else {
                return DoctorCheck(.failed, id, "\(name): secret file \(url.path) may be read by other users (mode \(String(mode, radix: 8)))",
                                   fix: "chmod 600 \(url.path)")
            }
            return DoctorCheck(.passed, id, "\(name): secret file \(url.path) is private (mode \(String(mode, radix: 8)))")
        case .command(let argv):
            let command = ExecCommand(sourceID: id, argv: argv, baseDirectory: container.manifest.baseDirectory)
            switch command.resolveExecutable(environment: command.childEnvironment(parent: environment)) {
            case .success(let url):
                return DoctorCheck(.passed, id, "\(name): credential helper '\(command.programName)' is \(url.path) (not run)")
            case .failure(let error):
                return DoctorCheck(.failed, id, "\(name): credential helper \(error.message)",
                                   fix: "install it, or correct \(source.optionsPath).\(name).fromCommand")
            }
        }
    }

    /// An exec source's program, and python3 when the program is a python script.
    private func execChecks(_ options: JSONValue) -> [DoctorCheck] {
        guard source.provider == "exec",
              let argv = options["command"]?.arrayValue?.compactMap(\.stringValue), let program = argv.first else { return [] }
        let command = ExecCommand(sourceID: id, argv: argv, baseDirectory: container.manifest.baseDirectory)
        let childEnvironment = command.childEnvironment(parent: environment)
        var checks: [DoctorCheck] = []
        var script: URL?
        switch command.resolveExecutable(environment: childEnvironment) {
        case .success(let url):
            checks.append(DoctorCheck(.passed, id, "program \(program) is executable (\(url.path))"))
            script = url
        case .failure(let error):
            let fix = error.kind == .configuration ? "chmod +x the program" : "install it, or correct \(source.optionsPath).command"
            checks.append(DoctorCheck(.failed, id, error.message, fix: fix))
        }
        if let interpreter = Self.pythonInterpreter(program: program, script: script) {
            let python = ExecCommand(sourceID: id, argv: [interpreter], baseDirectory: container.manifest.baseDirectory)
            switch python.resolveExecutable(environment: childEnvironment) {
            case .success(let url): checks.append(DoctorCheck(.passed, id, "\(interpreter) is \(url.path)"))
            case .failure:
                checks.append(DoctorCheck(.failed, id, "\(program) needs \(interpreter), which is not on PATH",
                                          fix: "install \(interpreter) (Debian/Ubuntu: apt-get install python3)"))
            }
        }
        return checks
    }

    /// `python3` when the program is python itself or a script whose `#!` line names it.
    static func pythonInterpreter(program: String, script: URL?) -> String? {
        let name = (program as NSString).lastPathComponent
        if name.hasPrefix("python") { return name }
        guard let script, let handle = try? FileHandle(forReadingFrom: script) else { return nil }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 128)) ?? Data(), as: UTF8.self)
        guard head.hasPrefix("#!"), let line = head.split(separator: "\n").first else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "/" }).last { $0.hasPrefix("python") }.map(String.init)
    }
}
