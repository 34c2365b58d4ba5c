import Foundation
import HTTPTypes
import Hummingbird

/// `GET /events`: server-sent events from the `EventLog`. A client that sends `Last-Event-ID` (or
/// `?lastEventId=`) gets every event after it that the log still keeps, then the live ones; without it, only
/// what happens from now on. A comment line keeps an idle stream open through proxies.
struct EventRoutes: Sendable {
    let events: EventLog

    static let lastEventID = HTTPField.Name("Last-Event-ID")!

    func register(on router: Router<ServeRequestContext>) {
        router.get("/events") { request, _ in stream(request) }
    }

    func stream(_ request: Request) -> Response {
        let given = request.headers[Self.lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            ?? APIRoutes.parameters(request).first { $0.name == "lastEventId" }.flatMap { Int($0.value) }
        guard let subscription = events.subscribe() else {
            var response = RequestProblem(.serviceUnavailable, "too many event streams are open; try again later").response
            response.headers[.retryAfter] = "10"
            return response
        }
        let events = self.events
        let headers: HTTPFields = [.contentType: "text/event-stream", .cacheControl: "no-store", .connection: "keep-alive"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { events.unsubscribe(subscription.id) }
            var last = events.lastID
            var preamble = "retry: 2000\n\n"
            if let given, given <= last {
                last = given
                if events.events(after: given, limit: 1) == nil {
                    preamble += ": events after \(given) are no longer kept; resuming from the oldest kept\n\n"
                    last = events.oldestID - 1
                }
            }
            try await writer.write(ByteBuffer(string: preamble))
            for await _ in subscription.wakeUps {
                guard let sent = try await Self.send(events, after: last, to: &writer) else { break }  // fell behind the ring
                if sent == last {
                    try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                }
                last = sent
            }
            try await writer.finish(nil)
        })
    }

    /// Writes everything after `id`; returns the last id written (`id` when nothing was new), nil when events
    /// after `id` are gone from the log.
    private static func send(_ events: EventLog, after id: Int, to writer: inout any ResponseBodyWriter) async throws -> Int? {
        var last = id
        while true {
            guard let batch = events.events(after: last) else { return nil }
            if batch.isEmpty { return last }
            var buffer = ByteBuffer()
            for event in batch {
                buffer.writeString("id: \(event.id)\nevent: \(event.name)\ndata: \(event.data)\n\n")
            }
            try await writer.write(buffer)
            last = batch[batch.count - 1].id
        }
    }
}
