@testable import App
import Domain
import Foundation
import ProviderTesting
import Testing

@Suite("Watch schedule: when each source runs next")
struct WatchScheduleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func report(_ status: SourceStatus, error: SourceError? = nil, freshUntil: Date? = nil) -> SourceReport {
        var report = SourceReport(
            descriptor: SourceDescriptor(id: "a", provider: "p", timeoutSeconds: 5, concurrency: 1), status: status, error: error)
        report.refreshNotBefore = freshUntil
        return report
    }

    @Test("the first cycle is spread within a tenth of each interval (at most 5 s), not fired all at once")
    func firstCycleSpread() {
        var random = SeededRandom(state: 1)
        let sources = (0..<50).map { (id: "s\($0)", interval: 300.0) }
        let schedule = WatchSchedule(sources: sources, now: start, random: &random)
        let offsets = schedule.entries.map { $0.next.timeIntervalSince(start) }
        #expect(offsets.allSatisfy { (0...5).contains($0) })
        #expect(Set(offsets.map { Int($0 * 10) }).count > 25, "spread over the window, not bunched")
        var short = SeededRandom(state: 2)
        let quick = WatchSchedule(sources: [(id: "q", interval: 10)], now: start, random: &short)
        #expect((0...1).contains(quick.entries[0].next.timeIntervalSince(start)))
    }

    @Test("due sources are taken once and not again while running; the next wake is the earliest waiting one")
    func takeDue() {
        var random = SeededRandom(state: 3)
        var schedule = WatchSchedule(sources: [(id: "a", interval: 60), (id: "b", interval: 600)], now: start, random: &random)
        let later = start.addingTimeInterval(60)
        #expect(schedule.takeDue(at: later) == ["a", "b"])
        #expect(schedule.takeDue(at: later).isEmpty, "running sources are not due again")
        #expect(schedule.nextWake == nil)
        schedule.finished("a", report: report(.ok), at: later, random: &random)
        #expect(schedule.nextWake == later.addingTimeInterval(60))
    }

    @Test("after a success the next run is one interval later, or when the service's max-age ends if later")
    func successAndMaxAge() {
        var random = SeededRandom(state: 4)
        var schedule = WatchSchedule(sources: [(id: "a", interval: 60)], now: start, random: &random)
        _ = schedule.takeDue(at: start.addingTimeInterval(10))
        schedule.finished("a", report: report(.ok), at: start, random: &random)
        #expect(schedule.entry("a")?.next == start.addingTimeInterval(60))
        _ = schedule.takeDue(at: start.addingTimeInterval(60))
        let fresh = start.addingTimeInterval(600)
        schedule.finished("a", report: report(.ok, freshUntil: fresh), at: start.addingTimeInterval(60), random: &random)
        #expect(schedule.entry("a")?.next == fresh)
        _ = schedule.takeDue(at: fresh)
        schedule.finished("a", report: report(.ok, freshUntil: fresh.addingTimeInterval(-1)), at: fresh, random: &random)
        #expect(schedule.entry("a")?.next == fresh.addingTimeInterval(60), "an earlier max-age does not shorten the interval")
    }

    @Test("failures back off by doubling with ±20 % jitter up to 1 h, never sooner than the interval; a success recovers")
    func backoffAndRecovery() {
        var random = SeededRandom(state: 5)
        var schedule = WatchSchedule(sources: [(id: "a", interval: 60)], now: start, random: &random)
        var now = start
        var waits: [TimeInterval] = []
        for _ in 0..<10 {
            _ = schedule.takeDue(at: schedule.entry("a")!.next)
            now = schedule.entry("a")!.next
            schedule.finished("a", report: report(.error, error: SourceError(.network, "down")), at: now, random: &random)
            waits.append(schedule.entry("a")!.next.timeIntervalSince(now))
        }
        for (failure, wait) in waits.enumerated() {
            let nominal = min(60 * pow(2, Double(failure)), 3600)
            #expect(wait >= max(nominal * 0.8, 60) && wait <= nominal * 1.2, "failure \(failure + 1): \(wait) s")
        }
        #expect(waits.last! <= 3600 * 1.2)
        #expect(schedule.entry("a")?.failures == 10)

        _ = schedule.takeDue(at: schedule.entry("a")!.next)
        now = schedule.entry("a")!.next
        schedule.finished("a", report: report(.ok), at: now, random: &random)
        #expect(schedule.entry("a")?.next == now.addingTimeInterval(60))
        #expect(schedule.entry("a")?.failures == 0)
    }

    @Test("a timeout and a stale copy count as failures; Retry-After or a rate-limit reset is a floor")
    func retryAfterFloor() {
        var random = SeededRandom(state: 6)
        var schedule = WatchSchedule(sources: [(id: "a", interval: 30)], now: start, random: &random)
        _ = schedule.takeDue(at: start.addingTimeInterval(5))
        schedule.finished("a", report: report(.timeout, error: SourceError(.timeout, "slow")), at: start, random: &random)
        #expect(schedule.entry("a")!.failures == 1)
        _ = schedule.takeDue(at: schedule.entry("a")!.next)
        let reset = start.addingTimeInterval(900)
        let limited = SourceError(.rateLimited, "HTTP 429", retryAt: reset)
        schedule.finished("a", report: report(.stale, error: limited), at: start.addingTimeInterval(40), random: &random)
        #expect(schedule.entry("a")!.next == reset)
        #expect(schedule.entry("a")!.failures == 2)
    }

    @Test("r makes every waiting source due now; a reload keeps the state of sources it keeps")
    func refreshAndReload() {
        var random = SeededRandom(state: 7)
        var schedule = WatchSchedule(sources: [(id: "a", interval: 60), (id: "b", interval: 60)], now: start, random: &random)
        _ = schedule.takeDue(at: start.addingTimeInterval(10))
        schedule.finished("a", report: report(.error, error: SourceError(.network, "down")), at: start, random: &random)
        let now = start.addingTimeInterval(20)
        schedule.refreshAll(at: now)
        #expect(schedule.entry("a")?.next == now)
        #expect(schedule.entry("b")?.isRunning == true, "a running source is left alone")

        schedule.replaceSources(with: [(id: "a", interval: 120), (id: "c", interval: 60)], now: now, random: &random)
        #expect(schedule.entries.map(\.id) == ["a", "c"])
        #expect(schedule.entry("a")?.failures == 1, "kept sources keep their state")
        #expect(schedule.entry("a")?.interval == 120)
        #expect((0...5).contains(schedule.entry("c")!.next.timeIntervalSince(now)))
    }

    @Test("one source's refresh makes only it due now, leaves a running one alone and refuses an unknown id")
    func refreshOne() {
        var random = SeededRandom(state: 9)
        var schedule = WatchSchedule(
            sources: [(id: "a", interval: 60), (id: "b", interval: 60), (id: "c", interval: 60)], now: start, random: &random)
        _ = schedule.takeDue(at: start.addingTimeInterval(10))
        schedule.finished("a", report: report(.ok), at: start.addingTimeInterval(10), random: &random)
        schedule.finished("c", report: report(.ok), at: start.addingTimeInterval(10), random: &random)
        let now = start.addingTimeInterval(20)
        let refreshedA = schedule.refresh("a", at: now)
        #expect(refreshedA)
        #expect(schedule.entry("a")?.next == now)
        #expect(schedule.entry("c")?.next == start.addingTimeInterval(70), "the others keep their schedule")
        let refreshedB = schedule.refresh("b", at: now)
        #expect(refreshedB, "a running source is known")
        #expect(schedule.entry("b")?.isRunning == true)
        let refreshedUnknown = schedule.refresh("nope", at: now)
        #expect(!refreshedUnknown)
        let due = schedule.takeDue(at: now)
        #expect(due == ["a"])
    }
}
