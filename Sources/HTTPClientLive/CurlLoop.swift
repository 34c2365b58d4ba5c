import CCurl
import Foundation
import Synchronization

/// The process's one libcurl multi handle, driven by one thread of its own: every transfer of every source (and
/// sink) runs here, so they share one connection cache, one DNS cache and HTTP/2 connections. The requests in
/// flight are bounded by `RequestSlots` (`defaults.maxConcurrentRequests`), whose slots are given back only once a
/// transfer is out of the multi handle, so that bound counts every transfer libcurl runs.
///
/// Other threads never call libcurl with the multi handle: they put a transfer to start or to stop in the inbox
/// and wake the loop (`CurlWaiter`). The loop adds and removes easy handles, sleeps until a socket, libcurl's timer
/// or a wake-up needs it, lets libcurl act and hands each finished transfer's outcome to its completion. A stopped
/// transfer is removed from the multi handle (closing its connection when it was mid-response) before its
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
        let handle = MultiHandle(pointer: pointer, waiter: CurlWaiter(multi: pointer))
        let thread = Thread { LoopThread(multi: handle, inbox: CurlLoop.shared).run() }
        thread.name = "aggregate.curl"
        thread.start()
        return handle
    }()

    /// Starts `transfer`; its completion runs once, on the loop thread.
    func start(_ transfer: CurlTransfer) {
        inbox.withLock { $0.started.append(transfer) }
        multi.waiter.wakeUp()
    }

    /// Stops `transfer` (nothing happens to one that already ended); `removed` runs on the loop thread once it is
    /// out of the multi handle, its connection closed or back in the cache.
    func stop(_ transfer: CurlTransfer, removed: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.stopped.append((transfer, removed)) }
        multi.waiter.wakeUp()
    }

    /// Sets the connection limits, applied by the loop before the next transfer starts. The idle connections kept
    /// only grow (the largest asked for by any client factory of the process); the per-host limit is the latest.
    func setLimits(_ limits: Limits) {
        inbox.withLock { inbox in
            var merged = limits
            if let pending = inbox.limits { merged.cachedConnections = max(pending.cachedConnections, limits.cachedConnections) }
            inbox.limits = merged
        }
    }

    fileprivate func takeInbox() -> Inbox {
        inbox.withLock { inbox in
            defer { inbox = Inbox() }
            return inbox
        }
    }
}

/// The multi handle's address and how its loop waits. Safe to share: only the loop thread calls libcurl with the
/// handle; other threads only wake it.
private struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    let waiter: CurlWaiter
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
    private let waiter: CurlWaiter

    init(multi: MultiHandle, inbox: CurlLoop) {
        self.multi = multi.pointer
        self.waiter = multi.waiter
        self.inbox = inbox
    }

    func run() {
        // Several transfers to one host share an HTTP/2 connection when the server offers one.
        aggregate_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        aggregate_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxIdle)
        while true {
            applyInbox()
            finishTransfers()
            waiter.waitAndDrive()
            finishTransfers()
        }
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
