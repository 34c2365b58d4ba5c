import ExecProvider
import FeedProvider
import FilesProvider
import Foundation
import GitHubProvider
import GitLabProvider
import HTMLProvider
import HackerNewsProvider
import OpenMeteoProvider
import OpenWeatherProvider
import ProviderKit
import TMDBProvider
import WasmPluginProvider

/// The providers a manifest can name.
public struct ProviderRegistry: Sendable {
    public let providers: [any Provider]

    public init(_ providers: [any Provider]) {
        self.providers = providers
    }

    /// Every built-in provider. Adding a provider target means adding one line here (and its Package.swift target).
    public static let builtIn = ProviderRegistry([
        FilesProvider(additionalReaders: [FeedFileReader()]),
        ExecProvider(),
        OpenWeatherProvider(),
        GitHubProvider(),
        FeedProvider(),
        TMDBProvider(),
        OpenMeteoProvider(),
        HackerNewsProvider(),
        GitLabProvider(),
        HTMLProvider(),
    ])

    public var names: [String] { providers.map(\.name) }

    public func provider(named name: String) -> (any Provider)? {
        providers.first { $0.name == name }
    }
}
