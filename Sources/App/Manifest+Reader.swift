import Domain
import Foundation

extension Manifest {
    /// `"reader": {"username": …, "password": …}`: the one account reader apps sync with (`serve`'s Google Reader
    /// and Fever APIs). The password as written: a string (`${VAR}`s allowed) or a secret reference, read when the
    /// server starts (`AppDIContainer.readerAccount`), never printed.
    public struct Reader: Sendable, Hashable {
        public var username: String
        var password: JSONValue

        public init(username: String, password: JSONValue) {
            self.username = username
            self.password = password
        }
    }
}

extension ManifestLoader {
    /// `reader` at the top level: both keys required, the password a string or a secret reference.
    static func reader(_ value: JSONValue?, report problem: (String, String) -> Void) -> Manifest.Reader? {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            problem("reader", "expected an object such as {\"username\": \"me\", \"password\": \"${READER_PASSWORD}\"}, found \(value.typeName)")
            return nil
        }
        checkKeys(object, allowed: ["username", "password"], path: "reader", report: problem)
        var valid = true
        let username = object["username"]?.stringValue?.trimmingCharacters(in: .whitespaces) ?? ""
        if username.isEmpty || username.contains(":") {
            problem("reader.username", "required: a non-empty string without ':' (the name a reader app logs in with)")
            valid = false
        }
        switch object["password"] {
        case nil:
            problem("reader.password", "required: a string (\"${VARIABLE}\" keeps it out of the file) or {\"fromFile\": PATH}")
            valid = false
        case .string(let text)? where text.isEmpty:
            problem("reader.password", "must not be empty")
            valid = false
        case .string?:
            break
        case let other?:
            switch SecretReference.parse(other, path: "reader.password") {
            case .success?: break
            case .failure(let error)?:
                for item in error.problems { problem(item.path, item.message) }
                valid = false
            case nil:
                // Never echo the value: it is meant to be a secret.
                problem("reader.password", "expected a string or a secret reference, found \(other.typeName)")
                valid = false
            }
        }
        guard valid, let password = object["password"] else { return nil }
        return Manifest.Reader(username: username, password: password)
    }
}
