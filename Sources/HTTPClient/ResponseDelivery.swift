import Dispatch

extension DispatchQueue {
    /// Where an HTTP client hands a request's outcome to the source that asked for it: never the caller's
    /// thread, never a transport's own queue.
    ///
    /// On Linux it is the global queue of background QoS, whose threads libdispatch runs at nice 10. What a
    /// source does with an answer (decode, map, hand on its items) is most of a run's CPU, and the transport's
    /// thread (libcurl's loop, HTTPClientLive's `CurlLoop`) must not wait behind it: a request is started, and an
    /// answer read, only when that thread gets a core. At default priority each
    /// request waited for the parsing of earlier answers before the next one went out (1,000 feeds at 64 in
    /// flight on two cores: −2 % wall, −6 % CPU, BENCHMARKS.md "Round six"). Elsewhere the default global queue:
    /// on Darwin background QoS also throttles I/O and keeps to the efficiency cores.
    public static let responseDelivery: DispatchQueue = {
        #if os(Linux)
        DispatchQueue.global(qos: .background)
        #else
        DispatchQueue.global()
        #endif
    }()
}
