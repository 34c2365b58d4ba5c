import CCurl
import Foundation

#if os(Linux)
/// How `CurlLoop`'s thread sleeps until libcurl has work, and how other threads wake it: libcurl names the sockets
/// to watch (`CURLMOPT_SOCKETFUNCTION`) and when it next needs a call (`CURLMOPT_TIMERFUNCTION`); the thread waits
/// on those sockets and an eventfd with epoll, then tells libcurl what happened (`curl_multi_socket_action`), which
/// touches only the transfers of those sockets. So a wake-up costs the same with 256 connections open as with one.
final class CurlWaiter: @unchecked Sendable {
    // @unchecked: `timerDue` is read and written on the loop thread only (in `waitAndDrive` and libcurl's callbacks,
    // which libcurl makes from the calls there); other threads only write to `wake`.
    private let multi: UnsafeMutableRawPointer
    private let wake: Int32
    private let events: Int32
    /// When libcurl next wants `CURL_SOCKET_TIMEOUT`, in `DispatchTime` nanoseconds; nil for no timer.
    private var timerDue: UInt64?
    private var ready = [epoll_event](repeating: epoll_event(), count: 256)

    init(multi: UnsafeMutableRawPointer) {
        self.multi = multi
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        events = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard wake >= 0, events >= 0 else { fatalError("the HTTP loop could not make its eventfd or epoll instance") }
        var wakeEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wake))
        epoll_ctl(events, EPOLL_CTL_ADD, wake, &wakeEvent)
        // The waiter lives as long as the process (the loop's): the callbacks' pointer to it never dangles.
        let context = Unmanaged.passRetained(self).toOpaque()
        aggregate_curl_multi_setopt_socket_callback(multi, socketCallback)
        aggregate_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context)
        aggregate_curl_multi_setopt_timer_callback(multi, timerCallback)
        aggregate_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context)
    }

    /// From any thread: the loop's wait returns, and it reads its inbox.
    func wakeUp() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wake, $0.baseAddress, 8) }
    }

    /// On the loop thread: sleeps until a watched socket is ready, libcurl's timer is due or `wakeUp` is called, then
    /// lets libcurl act on what happened.
    func waitAndDrive() {
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
}

/// `CURLMOPT_SOCKETFUNCTION`, on the loop thread (inside `curl_multi_socket_action` or `curl_multi_remove_handle`).
private func socketCallback(
    _ easy: UnsafeMutableRawPointer?, _ socket: curl_socket_t, _ what: Int32, _ waiter: UnsafeMutableRawPointer?,
    _ socketData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let waiter else { return -1 }
    Unmanaged<CurlWaiter>.fromOpaque(waiter).takeUnretainedValue().watch(socket, what: what)
    return 0
}

/// `CURLMOPT_TIMERFUNCTION`, on the loop thread.
private func timerCallback(_ multi: UnsafeMutableRawPointer?, _ milliseconds: Int, _ waiter: UnsafeMutableRawPointer?) -> Int32 {
    guard let waiter else { return -1 }
    Unmanaged<CurlWaiter>.fromOpaque(waiter).takeUnretainedValue().setTimer(milliseconds)
    return 0
}
#else
/// How `CurlLoop`'s thread sleeps until libcurl has work, and how other threads wake it, where there is no epoll:
/// `curl_multi_poll` over every socket, `curl_multi_wakeup`, then `curl_multi_perform` over every transfer.
final class CurlWaiter: @unchecked Sendable {
    // @unchecked: only the handle's address is stored; `curl_multi_wakeup` may be called from any thread.
    private let multi: UnsafeMutableRawPointer

    init(multi: UnsafeMutableRawPointer) {
        self.multi = multi
    }

    /// From any thread: the loop's wait returns, and it reads its inbox.
    func wakeUp() {
        curl_multi_wakeup(multi)
    }

    /// On the loop thread: sleeps until a socket or libcurl's timer needs it or `wakeUp` is called, then lets libcurl
    /// act.
    func waitAndDrive() {
        curl_multi_poll(multi, nil, 0, 1000, nil)
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
    }
}
#endif
