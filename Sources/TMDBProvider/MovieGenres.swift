/// TMDB's movie genres (`GET /3/genre/movie/list`, English names), so a listing needs no extra request to
/// name the `genre_ids` of its movies. TMDB has used these ids unchanged for years; an id missing here is
/// left out of a movie's genres rather than shown as a number.
enum MovieGenres {
    static let names: [Int: String] = [
        28: "Action",
        12: "Adventure",
        16: "Animation",
        35: "Comedy",
        80: "Crime",
        99: "Documentary",
        18: "Drama",
        10751: "Family",
        14: "Fantasy",
        36: "History",
        27: "Horror",
        10402: "Music",
        9648: "Mystery",
        10749: "Romance",
        878: "Science Fiction",
        10770: "TV Movie",
        53: "Thriller",
        10752: "War",
        37: "Western",
    ]

    /// The names of `ids` in the order TMDB gave them, unknown ids dropped.
    static func names(of ids: [Int]) -> [String] {
        ids.compactMap { names[$0] }
    }
}
