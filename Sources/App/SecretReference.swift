import Domain
import Foundation
import Processes
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

/// The secrets of one source's options (or one sink's settings) that are given by reference.
///
/// A secret sits at a place: a key (`apiKey`, a sink's `password`), or a member of an object whose every value
/// may be a secret (`env.TOKEN` of an exec program). Places are named as dotted paths below the object.
struct SecretReferences: Sendable {
    /// Place (`apiKey`, `env.TOKEN`) → reference.
    let references: [String: SecretReference]
    /// Objects at secret places that are no valid reference, with their paths.
    let problems: [ManifestProblem]
    /// Every secret place holding an object, valid reference or not (validation puts a string there).
    private let objectPlaces: [Place]

    private struct Place: Sendable, Hashable {
        var key: String
        var member: String?
        var name: String { member.map { "\(key).\($0)" } ?? key }
    }

    /// - Parameter options: the source's options (after `${VAR}` substitution).
    init(provider: (any Provider)?, options: JSONValue, optionsPath: String) {
        let specs = provider?.options ?? []
        self.init(
            options, secretKeys: Set(specs.filter(\.secret).map(\.name)),
            secretMemberKeys: Set(specs.filter(\.secretValues).map(\.name)), path: optionsPath)
    }

    /// - Parameters:
    ///   - secretKeys: keys whose value is a secret.
    ///   - secretMemberKeys: keys of objects whose every value is a secret (an environment).
    ///   - path: `object`'s JSON path, for problems.
    init(_ object: JSONValue, secretKeys: Set<String>, secretMemberKeys: Set<String>, path: String) {
        var references: [String: SecretReference] = [:]
        var problems: [ManifestProblem] = []
        var objectPlaces: [Place] = []
        var places: [(Place, JSONValue)] = []
        for (key, value) in object.objectValue ?? [:] {
            if secretKeys.contains(key) { places.append((Place(key: key), value)) }
            if secretMemberKeys.contains(key), let members = value.objectValue {
                places += members.map { (Place(key: key, member: $0.key), $0.value) }
            }
        }
        for (place, value) in places {
            switch SecretReference.parse(value, path: "\(path).\(place.name)") {
            case .success(let reference)?: references[place.name] = reference
            case .failure(let error)?: problems += error.problems
            case nil: continue
            }
            objectPlaces.append(place)
        }
        self.references = references
        self.problems = problems
        self.objectPlaces = objectPlaces
    }

    /// `object` with the value at `place` replaced.
    private static func setting(_ value: JSONValue, at place: Place, in object: JSONValue) -> JSONValue {
        guard var members = object.objectValue else { return object }
        if let member = place.member {
            guard var inner = members[place.key]?.objectValue else { return object }
            inner[member] = value
            members[place.key] = .object(inner)
        } else {
            members[place.key] = value
        }
        return .object(members)
    }

    /// The strings at the referenced places of `options` once resolved: the secrets read.
    func secrets(in options: JSONValue) -> [String] {
        references.keys.compactMap { name in
            let place = place(named: name)
            let value = options[place.key]
            return (place.member.map { value?[$0] } ?? value)?.stringValue
        }
    }

    private func place(named name: String) -> Place {
        objectPlaces.first { $0.name == name } ?? Place(key: name)
    }

    var isEmpty: Bool { references.isEmpty }

    /// `options` with each reference replaced by a placeholder string, for validation.
    func placeholders(in options: JSONValue) -> JSONValue {
        objectPlaces.reduce(options) { Self.setting(SecretReference.placeholder, at: $1, in: $0) }
    }

    /// Reads every reference on a thread of its own, one after another, and calls `completion` once with
    /// `options` holding the secrets, or the first failure.
    func resolve(
        in options: JSONValue, baseDirectory: URL, timeoutSeconds: Double, cancellation: CancellationToken?,
        environment: [String: String], cache: SecretCache,
        completion: @escaping @Sendable (Result<JSONValue, SourceError>) -> Void
    ) {
        let pending = references.sorted { $0.key < $1.key }.map { (place: place(named: $0.key), reference: $0.value) }
        let thread = Thread {
            Self.next(pending[...], options: options, baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds,
                      cancellation: cancellation, environment: environment, cache: cache, completion: completion)
        }
        thread.name = "aggregate.secrets"
        thread.start()
    }

    private static func next(
        _ pending: ArraySlice<(place: Place, reference: SecretReference)>, options: JSONValue, baseDirectory: URL,
        timeoutSeconds: Double, cancellation: CancellationToken?, environment: [String: String], cache: SecretCache,
        completion: @escaping @Sendable (Result<JSONValue, SourceError>) -> Void
    ) {
        guard let (place, reference) = pending.first else { return completion(.success(options)) }
        reference.read(
            baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds, cancellation: cancellation, environment: environment,
            cache: cache
        ) { result in
            switch result {
            case .failure(let error):
                completion(.failure(SourceError(error.kind, "\(place.name): \(error.message)")))
            case .success(let secret):
                next(pending.dropFirst(), options: setting(.string(secret), at: place, in: options), baseDirectory: baseDirectory,
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

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        references.resolve(
            in: options, baseDirectory: baseDirectory, timeoutSeconds: timeoutSeconds, cancellation: context.cancellation,
            environment: environment, cache: cache
        ) { [build] result in
            switch result {
            case .failure(let error):
                receiver.fail(error)
            case .success(let resolved):
                do throws(ManifestError) {
                    try build(resolved).load(context, into: receiver)
                } catch {
                    receiver.fail(SourceError(.configuration, error.description))
                }
            }
        }
    }
}
