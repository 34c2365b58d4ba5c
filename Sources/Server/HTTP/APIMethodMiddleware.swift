import Hummingbird

/// A method an `/api` route does not take is a 405 with `Allow` and the JSON error, before anything else is
/// checked (the router alone answered an empty 404, as if the path did not exist). The routes and their
/// methods are docs/openapi.json's, which `OpenAPIDocumentTests` holds equal to the router's.
struct APIMethodMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods of the route `path` belongs to; nil for a path that is no `/api` route.
    static func methods(of path: String) -> [HTTPRequest.Method]? {
        switch path {
        case "/api/report", "/api/items", "/api/sources", "/api/openapi.json":
            return [.get, .head]
        default:
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            if parts.count == 5, parts[1] == "api", parts[2] == "sources", !parts[3].isEmpty, parts[4] == "refresh" {
                return [.post]
            }
            return nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let allowed = Self.methods(of: request.uri.path), !allowed.contains(request.method) else {
            return try await next(request, context)
        }
        let names = allowed.map(\.rawValue).joined(separator: ", ")
        var response = RequestProblem(.methodNotAllowed, "\(request.uri.path) takes \(names), not \(request.method.rawValue)").response
        response.headers[.allow] = names
        return response
    }
}
