import Hummingbird
import NIOCore

/// Hummingbird's basic context plus the client's address, which the login throttle counts failures by.
struct ServeRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The address without its port (a client opens a new connection, with a new port, per try).
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }
}
