import Domain
import Foundation
import ProviderKit

/// A validated `manifest.json` (version 1): which sources exist, which provider serves each, and their limits.
public struct Manifest: Sendable, Hashable {
    public struct Defaults: Sendable, Hashable {
        public var timeoutSeconds: Double
        public var concurrency: Int

        public init(timeoutSeconds: Double = 10, concurrency: Int = 8) {
            self.timeoutSeconds = timeoutSeconds
            self.concurrency = concurrency
        }
    }

    public struct Source: Sendable, Hashable {
        public var id: String
        public var provider: String
        public var enabled: Bool
        public var timeoutSeconds: Double
        public var concurrency: Int
        /// The provider's options as written, before `${VAR}` substitution.
        public var options: JSONValue
        /// Position in `sources`, for JSON paths in later messages.
        public var index: Int

        public var optionsPath: String { "sources[\(index)].options" }
    }

    public var version: Int
    public var defaults: Defaults
    public var sources: [Source]
    /// The manifest file's directory: relative paths in options resolve against it.
    public var baseDirectory: URL

    public func source(id: String) -> Source? {
        sources.first { $0.id == id }
    }
}
