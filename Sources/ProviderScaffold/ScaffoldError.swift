import Foundation

/// Why a scaffold was refused. Each description says what to do instead.
public enum ScaffoldError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidName(String, String)
    case invalidProviderName(String)
    case unknownCapability(String)
    case targetExists(String)
    case notAPackage(String)
    case packageExists(String)
    case writeFailed(String, String)
    case fileExists(String)

    public var description: String {
        switch self {
        case .invalidName(let name, let why):
            "'\(name)' cannot name a provider: \(why). Example: --name \"Tech Digest\""
        case .invalidProviderName(let name):
            "'\(name)' cannot be a provider name: use lowercase letters and digits in words joined by hyphens, such as tech-digest"
        case .unknownCapability(let value):
            "'\(value)' is not a capability; choose one of \(Capability.allCases.map(\.rawValue).joined(separator: ", "))"
        case .targetExists(let path):
            "\(path) already exists; refusing to overwrite it. Pick another --name, or delete that folder first"
        case .notAPackage(let path):
            "\(path) has no Package.swift; run the command in the aggregate package"
        case .packageExists(let path):
            "\(path) already exists; refusing to overwrite it. Pick an empty or new --standalone directory"
        case .writeFailed(let path, let why):
            "could not write \(path): \(why)"
        case .fileExists(let path):
            "\(path) already exists; refusing to overwrite it. Pick an empty or new --directory"
        }
    }
}
