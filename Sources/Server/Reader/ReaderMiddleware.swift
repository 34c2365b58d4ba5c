import Hummingbird

/// Sends the reader APIs' requests (any method, any path below them) to their routes before the router: their
/// paths carry stream ids with slashes (`stream/contents/feed/news`), and clients use GET and POST alike.
struct ReaderMiddleware: RouterMiddleware {
    typealias Context = ServeRequestContext

    let googleReader: GoogleReaderRoutes
    let fever: FeverRoutes

    init(service: ReaderService) {
        // One throttle for both logins: a guesser gets no second budget on the other API.
        let logins = LoginThrottle()
        googleReader = GoogleReaderRoutes(service: service, logins: logins)
        fever = FeverRoutes(service: service, logins: logins)
    }

    /// Paths the reader APIs answer, with their own credentials (the serve token is for people and scripts).
    static func handles(_ path: String) -> Bool {
        GoogleReaderRoutes.handles(path) || FeverRoutes.handles(path)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if GoogleReaderRoutes.handles(path) { return await googleReader.respond(request, from: context.clientAddress) }
        if FeverRoutes.handles(path) { return await fever.respond(request, from: context.clientAddress) }
        return try await next(request, context)
    }
}
