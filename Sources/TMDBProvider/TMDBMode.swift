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
