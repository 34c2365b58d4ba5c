import CCurl
import Foundation
import Synchronization

/// The process's one libcurl multi handle, driven by one thread of its own: every transfer of every source (and
/// sink) runs here, so they share one connection cache, one DNS cache and HTTP/2 connections. The requests in
/// flight are bounded by `RequestSlots` (`defaults.maxConcurrentRequests`), whose slots are given back only once a
/// transfer is out of the multi handle, so that bound counts every transfer libcurl runs.
///
/// Other threads never call libcurl with the multi handle: they put a transfer to start or to stop in the inbox
/// and wake the loop (an eventfd it watches). The loop adds and removes easy handles and waits in `epoll_wait` on
/// the sockets libcurl asks it to watch (`CURLMOPT_SOCKETFUNCTION`) until one is ready, libcurl's timer
/// (`CURLMOPT_TIMERFUNCTION`) is due or it is woken; then it tells libcurl what happened
/// (`curl_multi_socket_action`), which touches only the transfers of those sockets, and hands each finished
/// transfer's outcome to its completion. So a wake-up costs the same with 256 connections open as with one. A
/// stopped transfer is removed from the multi handle (closing its connection when it was mid-response) before its
/// `removed` callback runs.
///
/// libcurl is loaded (and the thread started) by the first transfer, never by a run that makes no request.
final class CurlLoop: Sendable {
    static let shared = CurlLoop()

    /// How many connections libcurl keeps: at least `defaults.maxConcurrentRequests` idle ones in its cache (the
    /// requests in flight are bounded by `RequestSlots`, whose slots are given back only once a transfer is out of
    /// the multi handle), and at most `perHost` to one host and port (`defaults.maxConnectionsPerHost`; transfers
    /// beyond it wait in libcurl for a connection, or share an HTTP/2 one).
    struct Limits: Sendable, Hashable {
        var cachedConnections: Int
        var perHost: Int?
    }

    fileprivate struct Inbox {
        var started: [CurlTransfer] = []
        var stopped: [(CurlTransfer, @Sendable () -> Void)] = []
        var limits: Limits?
    }

    private let inbox = Mutex(Inbox())

    /// The multi handle, made (libcurl loaded, the thread started) by the first call that needs it.
    private var multi: MultiHandle { Self.multi }

    private static let multi: MultiHandle = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        guard let pointer = curl_multi_init() else { fatalError("libcurl could not make a multi handle (out of memory)") }
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        let events = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard wake >= 0, events >= 0 else { fatalError("the HTTP loop could not make its eventfd or epoll instance") }
        let handle = MultiHandle(pointer: pointer, wake: wake, events: events)
        let thread = Thread { LoopThread(multi: handle, inbox: CurlLoop.shared).run() }
        thread.name = "aggregate.curl"
        thread.start()
        return handle
    }()

    /// Starts `transfer`; its completion runs once, on the loop thread.
    func start(_ transfer: CurlTransfer) {
        inbox.withLock { $0.started.append(transfer) }
        multi.wakeUp()
    }

    /// Stops `transfer` (nothing happens to one that already ended); `removed` runs on the loop thread once it is
    /// out of the multi handle, its connection closed or back in the cache.
    func stop(_ transfer: CurlTransfer, removed: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.stopped.append((transfer, removed)) }
        multi.wakeUp()
    }

    /// Sets the connection limits, applied by the loop before the next transfer starts.
    func setLimits(_ limits: Limits) {
        inbox.withLock { $0.limits = limits }
    }

    fileprivate func takeInbox() -> Inbox {
        inbox.withLock { inbox in
            defer { inbox = Inbox() }
            return inbox
        }
    }
}

/// The multi handle's address, and the loop's eventfd and epoll instance. Safe to share: only the loop thread calls
/// libcurl with the handle or waits on `events`; other threads only write to `wake`.
private struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let wake: Int32
    let events: Int32

    /// Wakes the loop (from any thread): its `epoll_wait` returns and it reads the inbox.
    func wakeUp() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wake, $0.baseAddress, 8) }
    }
}

/// What only the loop thread touches: the transfers in the multi handle and the idle easy handles.
private final class LoopThread {
    private let multi: UnsafeMutableRawPointer
    private let inbox: CurlLoop
    /// The transfers in the multi handle, by their easy handle.
    private var running: [UnsafeMutableRawPointer: RunningTransfer] = [:]
    /// The same, by transfer, to find one to stop.
    private var byTransfer: [ObjectIdentifier: UnsafeMutableRawPointer] = [:]
    /// Easy handles of finished transfers, reset and kept for the next ones; at most `maxIdle`, which is also the
    /// size of libcurl's connection cache.
    private var idle: [UnsafeMutableRawPointer] = []
    private var maxIdle = 64
    private let wake: Int32
    private let events: Int32
    /// When libcurl next wants `CURL_SOCKET_TIMEOUT` (its timer callback), in `DispatchTime` nanoseconds; nil for none.
    private var timerDue: UInt64?

    init(multi: MultiHandle, inbox: CurlLoop) {
        self.multi = multi.pointer
        self.wake = multi.wake
        self.events = multi.events
        self.inbox = inbox
    }

    func run() {
        // Several transfers to one host share an HTTP/2 connection when the server offers one.
        aggregate_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        aggregate_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxIdle)
        // The loop lives as long as the process: the callbacks' pointer to it never dangles.
        let context = Unmanaged.passRetained(self).toOpaque()
        aggregate_curl_multi_setopt_socket_callback(multi, socketCallback)
        aggregate_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        aggregate_curl_multi_setopt_timer_callback(multi, timerCallback)
        aggregate_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
        var wakeEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
        epoll_ctl(events, EPOLL_CTL_ADD, wake, &wakeEvent)
        var ready = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            applyInbox()
            finishTransfers()
            let count = ready.withUnsafeMutableBufferPointer { buffer in
                epoll_wait(events, buffer.baseAddress, Int32(buffer.count), waitMilliseconds())
            }
            var running: Int32 = 0
            for event in ready.prefix(max(0, Int(count))) {
                if event.data.fd == wake {
                    var drained: UInt64 = 0
                    _ = withUnsafeMutableBytes(of: &drained) { read(wake, $0.baseAddress, 8) }
                    continue
                }
                var what: Int32 = 0
                if event.events & EPOLLIN.rawValue != 0 { what |= CURL_CSELECT_IN }
                if event.events & EPOLLOUT.rawValue != 0 { what |= CURL_CSELECT_OUT }
                if event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 { what |= CURL_CSELECT_ERR }
                curl_multi_socket_action(multi, event.data.fd, what, &running)
            }
            if let due = timerDue, DispatchTime.now().uptimeNanoseconds >= due {
                timerDue = nil  // libcurl sets the next one from inside the call
                curl_multi_socket_action(multi, CURL_SOCKET_BAD, 0, &running)
            }
            finishTransfers()
        }
    }

    /// How long `epoll_wait` may sleep: until libcurl's timer is due, or until woken (-1) when none is set.
    private func waitMilliseconds() -> Int32 {
        guard let due = timerDue else { return -1 }
        let now = DispatchTime.now().uptimeNanoseconds
        guard due > now else { return 0 }
        return Int32(min((due - now + 999_999) / 1_000_000, UInt64(Int32.max)))
    }

    /// libcurl's `CURLMOPT_SOCKETFUNCTION`: watch `socket` for `what` (or no longer).
    fileprivate func watch(_ socket: Int32, what: Int32) {
        guard what != CURL_POLL_REMOVE else {
            // The socket may be closed already (epoll then forgot it on its own): nothing to do about an error.
            epoll_ctl(events, EPOLL_CTL_DEL, socket, nil)
            return
        }
        var flags: UInt32 = 0
        if what & CURL_POLL_IN != 0 { flags |= EPOLLIN.rawValue }
        if what & CURL_POLL_OUT != 0 { flags |= EPOLLOUT.rawValue }
        var event = epoll_event(events: flags, data: epoll_data_t(fd: socket))
        // Watched already, or a new socket (perhaps on the number of one closed without a REMOVE): one or the other.
        if epoll_ctl(events, EPOLL_CTL_MOD, socket, &event) != 0 {
            epoll_ctl(events, EPOLL_CTL_ADD, socket, &event)
        }
    }

    /// libcurl's `CURLMOPT_TIMERFUNCTION`: call back in `milliseconds` (-1: no timer).
    fileprivate func setTimer(_ milliseconds: Int) {
        timerDue = milliseconds < 0 ? nil : DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    }

    private func applyInbox() {
        let work = inbox.takeInbox()
        if let limits = work.limits {
            maxIdle = max(maxIdle, limits.cachedConnections)
            aggregate_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxIdle)
            if let perHost = limits.perHost {
                aggregate_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
            }
        }
        for (transfer, removed) in work.stopped {
            if let easy = byTransfer[ObjectIdentifier(transfer)] { finish(easy, code: nil) }
            removed()
        }
        for transfer in work.started { add(transfer) }
    }

    private func add(_ transfer: CurlTransfer) {
        let easy: UnsafeMutableRawPointer
        if let reused = idle.popLast() {
            curl_easy_reset(reused)
            easy = reused
        } else if let made = curl_easy_init() {
            easy = made
        } else {
            transfer.complete(.failure(CurlFailure(code: CURLE_OUT_OF_MEMORY)))
            return
        }
        let state = RunningTransfer(transfer: transfer)
        if let failure = state.configure(easy) {
            state.release()
            idle.append(easy)
            transfer.complete(.failure(CurlFailure(code: failure)))
            return
        }
        running[easy] = state
        byTransfer[ObjectIdentifier(transfer)] = easy
        curl_multi_add_handle(multi, easy)
    }

    private func finishTransfers() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finish(easy, code: aggregate_curl_message_result(message))
        }
    }

    /// Takes `easy` out of the multi handle and completes its transfer with `code` (nil: stopped, no outcome).
    private func finish(_ easy: UnsafeMutableRawPointer, code: CURLcode?) {
        guard let state = running.removeValue(forKey: easy) else { return }
        byTransfer[ObjectIdentifier(state.transfer)] = nil
        // Read what the outcome needs before the handle is removed (and reset for reuse).
        let outcome = code.map { state.outcome(easy, code: $0) }
        curl_multi_remove_handle(multi, easy)
        state.release()
        if idle.count < maxIdle {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
        if let outcome { state.transfer.complete(outcome) }
    }
}

/// `CURLMOPT_SOCKETFUNCTION`, on the loop thread (inside `curl_multi_socket_action` or `curl_multi_remove_handle`).
private func socketCallback(
    _ easy: UnsafeMutableRawPointer?, _ socket: curl_socket_t, _ what: Int32, _ loop: UnsafeMutableRawPointer?,
    _ socketData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let loop else { return -1 }
    Unmanaged<LoopThread>.fromOpaque(loop).takeUnretainedValue().watch(socket, what: what)
    return 0
}

/// `CURLMOPT_TIMERFUNCTION`, on the loop thread.
private func timerCallback(_ multi: UnsafeMutableRawPointer?, _ milliseconds: Int, _ loop: UnsafeMutableRawPointer?) -> Int32 {
    guard let loop else { return -1 }
    Unmanaged<LoopThread>.fromOpaque(loop).takeUnretainedValue().setTimer(milliseconds)
    return 0
}
