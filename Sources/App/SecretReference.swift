import Domain
import ExecProvider
import Foundation
import ProviderKit
import Synchronization

/// A credential a secret option (`OptionSpec.secret`) names instead of holding it:
/// `{"fromFile": "~/.config/tmdb.key"}` or `{"fromCommand": ["pass", "show", "tmdb"]}`.
///
/// Read when the source runs, never while validating (a check runs no programs), on a thread of its own. The
/// provider then gets the secret as the string it always gets, so the redaction that keeps `${VAR}` values out
/// of every message, log, page and the store keeps these out too.
enum SecretReference: Sendable, Hashable {
    case file(String)
    case command([String])

    /// The reference `value` holds; nil for a plain value (a string, left to the provider); a problem when
    /// `value` is an object that is no valid reference.
    static func parse(_ value: JSONValue, path: String) -> Result<SecretReference, ManifestError>? {
        guard case .object(let members) = value else { return nil }
        let usage = "expected a string, {\"fromFile\": \"PATH\"} or {\"fromCommand\": [\"PROGRAM\", \"ARG\", …]}"
        guard members.count == 1, let (key, member) = members.first else {
            return .failure(ManifestError(path: path, usage))
        }
        switch (key, member) {
        case ("fromFile", .string(let file)) where !file.isEmpty:
            return .success(.file(file))
        case ("fromCommand", .array(let words)):
            let argv = words.compactMap(\.stringValue)
            guard argv.count == words.count, let program = argv.first, !program.isEmpty else {
                return .failure(ManifestError(path: "\(path).fromCommand", "expected a non-empty array of strings: the program and its arguments"))
            }
            return .success(.command(argv))
        case ("fromFile", _):
            return .failure(ManifestError(path: "\(path).fromFile", "expected the path of a file holding the secret"))
        default:
            return .failure(ManifestError(path: path, usage))
        }
    }

    /// What validation puts in its place: any string passes where the secret would.
    static let placeholder = JSONValue.string("secret-reference")

    /// Reads the secret. Blocks (a file read, a program's run): call on a thread of its own. A file is read
    /// every time (a rotated key is picked up at once); a helper's answer is kept in `cache`, so a watch or a
    /// server asks it once, not at every refresh (a helper may prompt, or unlock a keyring).
    func read(
        baseDirectory: URL, timeoutSeconds: Double, cancellation: CancellationToken?, environment: [String: String],
        cache: SecretCache, completion: @escaping @Sendable (Result<String, SourceError>) -> Void
    ) {
        switch self {
        case .file(let path):
            completion(Self.readFile(Self.resolve(path, baseDirectory: baseDirectory, environment: environment)))
        case .command(let argv):
            if let known = cache.answer(of: argv) { return completion(.success(known)) }
            CredentialHelper.run(
                argv, directory: baseDirectory, timeoutSeconds: timeoutSeconds, cancellation: cancellation,
                environment: environment
            ) { result in
                if case .success(let secret) = result { cache.keep(secret, of: argv) }
                completion(result)
            }
        }
    }

    /// Relative to the manifest's directory; `~` is the environment's HOME.
    static func resolve(_ path: String, baseDirectory: URL, environment: [String: String]) -> URL {
        if path == "~" || path.hasPrefix("~/") {
            let home = environment["HOME"] ?? NSHomeDirectory()
            return URL(fileURLWithPath: home).appendingPathComponent(String(path.dropFirst(2))).standardizedFileURL
        }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return baseDirectory.appendingPathComponent(path).standardizedFileURL
    }

    /// The file's text without trailing newlines; refused when others may read it (with the `chmod` that fixes it).
    static func readFile(_ url: URL) -> Result<String, SourceError> {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            return .failure(SourceError(.configuration, "secret file \(url.path) does not exist or cannot be reached"))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .failure(SourceError(.configuration, "secret file \(url.path) is not a regular file"))
        }
        let permissions = status.st_mode & 0o777
        guard permissions & 0o044 == 0 else {
            let mode = String(permissions, radix: 8)
            return .failure(SourceError(
                .configuration,
                "secret file \(url.path) may be read by other users (mode \(mode)); make it yours alone: chmod 600 \(url.path)"))
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return .failure(SourceError(.configuration, "secret file \(url.path) cannot be read"))
        }
        let secret = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
        guard !secret.isEmpty else { return .failure(SourceError(.configuration, "secret file \(url.path) is empty")) }
        return .success(secret)
    }
}

/// Credential helpers' answers, kept in memory for the life of one container (one run, one watch or server
/// until its manifest is reloaded, which asks again). Never written anywhere.
final class SecretCache: Sendable {
    private let answers = Mutex<[[String]: String]>([:])

    func answer(of argv: [String]) -> String? { answers.withLock { $0[argv] } }
    func keep(_ secret: String, of argv: [String]) { answers.withLock { $0[argv] = secret } }
}

/// The secret options of one source that are given by reference.
struct SecretReferences: Sendable {
    /// Option name → reference.
    let references: [String: SecretReference]
    /// Objects in secret options that are no valid reference, with their paths.
    let problems: [ManifestProblem]
    /// Every secret option holding an object, valid reference or not (validation puts a string there).
    private let objectNames: [String]

    /// - Parameter options: the source's options (after `${VAR}` substitution).
    init(provider: (any Provider)?, options: JSONValue, optionsPath: String) {
        var references: [String: SecretReference] = [:]
        var problems: [ManifestProblem] = []
        var objectNames: [String] = []
        let secret = Set((provider?.options ?? []).filter(\.secret).map(\.name))
        for (name, value) in options.objectValue ?? [:] where secret.contains(name) {
            switch SecretReference.parse(value, path: "\(optionsPath).\(name)") {
            case .success(let reference)?: references[name] = reference
            case .failure(let error)?: problems += error.problems
            case nil: continue
            }
            objectNames.append(name)
        }
        self.references = references
        self.problems = problems
        self.objectNames = objectNames
    }

    var isEmpty: Bool { references.isEmpty }

    /// `options` with each reference replaced by a placeholder string, for validation.
    func placeholders(in options: JSONValue) -> JSONValue {
        guard var members = options.objectValue, !objectNames.isEmpty else { return options }
        for name in objectNames { members[name] = SecretReference.placeholder }
        return .object(members)
    }

    /// Reads every reference on a thread of its own, one after another, and calls `completion` once with
    /// `options` holding the secrets, or the first failure.
    func resolve(
        in options: JSONValue, baseDirectory: URL, timeoutSeconds: Double, cancellation: CancellationToken?,
        environment: [String: String], cache: SecretCache,
        completion: @escaping @Sendable (Result<JSONValue, SourceError>) -> Void
    ) {
        let pending = references.sorted { $0.key < $1.key }
        let thread = Thread {
            Self.next(pending[...], options: options, baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds,
                      cancellation: cancellation, environment: environment, cache: cache, completion: completion)
        }
        thread.name = "aggregate.secrets"
        thread.start()
    }

    private static func next(
        _ pending: ArraySlice<(key: String, value: SecretReference)>, options: JSONValue, baseDirectory: URL,
        timeoutSeconds: Double, cancellation: CancellationToken?, environment: [String: String], cache: SecretCache,
        completion: @escaping @Sendable (Result<JSONValue, SourceError>) -> Void
    ) {
        guard let (name, reference) = pending.first else { return completion(.success(options)) }
        reference.read(
            baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds, cancellation: cancellation, environment: environment,
            cache: cache
        ) { result in
            switch result {
            case .failure(let error):
                completion(.failure(SourceError(error.kind, "\(name): \(error.message)")))
            case .success(let secret):
                var members = options.objectValue ?? [:]
                members[name] = .string(secret)
                next(pending.dropFirst(), options: .object(members), baseDirectory: baseDirectory,
                     timeoutSeconds: timeoutSeconds, cancellation: cancellation, environment: environment, cache: cache,
                     completion: completion)
            }
        }
    }
}

/// A source whose secret options are references: they are read when it loads, then the provider's source is
/// built with the secrets and loads as it would with `${VAR}`s.
struct SecretResolvingSource: ItemSource {
    let references: SecretReferences
    let options: JSONValue
    let baseDirectory: URL
    let timeoutSeconds: Double
    let environment: [String: String]
    let cache: SecretCache
    let build: @Sendable (JSONValue) throws(ManifestError) -> any ItemSource

    func load(_ context: LoadContext, into sink: ItemSink) {
        references.resolve(
            in: options, baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds, cancellation: context.cancellation,
            environment: environment, cache: cache
        ) { [build] result in
            switch result {
            case .failure(let error):
                sink.fail(error)
            case .success(let resolved):
                do throws(ManifestError) {
                    try build(resolved).load(context, into: sink)
                } catch {
                    sink.fail(SourceError(.configuration, error.description))
                }
            }
        }
    }
}
