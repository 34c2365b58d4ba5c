import Domain
import ProviderKit

/// The manifest's `mode`: which TMDB list a source reads.
enum TMDBMode: String, CaseIterable, OptionEnum {
    case search
    case popular
    case topRated = "top_rated"
    case nowPlaying = "now_playing"
    case trending

    /// `query` is used only by `.search`.
    func listing(query: String) -> MovieListing {
        switch self {
        case .search: .search(query: query)
        case .popular: .popular
        case .topRated: .topRated
        case .nowPlaying: .nowPlaying
        case .trending: .trending
        }
    }
}

extension MovieListing {
    /// The v3 endpoint serving this listing.
    var tmdbPath: String {
        switch self {
        case .search: "/3/search/movie"
        case .popular: "/3/movie/popular"
        case .topRated: "/3/movie/top_rated"
        case .nowPlaying: "/3/movie/now_playing"
        case .trending: "/3/trending/movie/week"
        }
    }
}

/// How requests prove who we are. Exactly one per source; its value is a secret.
enum TMDBCredential: Sendable, Hashable {
    /// A v3 API key, sent as the `api_key` query item (redacted in every log line and message).
    case apiKey(String)
    /// A v4 read access token, sent as `Authorization: Bearer …`.
    case accessToken(String)

    var secret: String {
        switch self {
        case .apiKey(let key): key
        case .accessToken(let token): token
        }
    }
}
