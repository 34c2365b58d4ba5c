import Domain
import Foundation
import Testing

@Suite("Aggregating sources")
struct AggregateSourcesUseCaseTests {
    private let useCase = AggregateSourcesUseCase()

    @Test("reports come back in plan order whatever order the sources finish in")
    func planOrder() async {
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("slow"), plan: .load(ScriptedSource(behaviour: .items(["s"], after: 0.15)))),
            PlannedSource(descriptor: descriptor("fast"), plan: .load(ScriptedSource(behaviour: .items(["f"], after: 0)))),
            PlannedSource(descriptor: descriptor("middle"), plan: .load(ScriptedSource(behaviour: .items(["m"], after: 0.05)))),
        ])
        #expect(report.sources.map(\.id) == ["slow", "fast", "middle"])
        #expect(report.sources.map { $0.items.map(\.id) } == [["s"], ["f"], ["m"]])
        #expect(report.sources.allSatisfy { $0.status == .ok })
        #expect(!report.hasFailures)
    }

    @Test("a failing source does not hurt the others")
    func failureIsolated() async {
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("ok"), plan: .load(ScriptedSource(behaviour: .items(["a", "b"], after: 0.02)))),
            PlannedSource(descriptor: descriptor("broken"),
                          plan: .load(ScriptedSource(behaviour: .failure(SourceError(.unauthorized, "bad key"), after: 0)))),
        ])
        #expect(report.sources[0].status == .ok)
        #expect(report.sources[0].items.count == 2)
        #expect(report.sources[1].status == .error)
        #expect(report.sources[1].error == SourceError(.unauthorized, "bad key"))
        #expect(report.hasFailures)
    }

    @Test("a source past its timeout is reported timeout with what it delivered; the others are unaffected")
    func sourceTimeout() async {
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("hung", timeout: 0.2), plan: .load(ScriptedSource(behaviour: .hangs(afterEmitting: ["early"])))),
            PlannedSource(descriptor: descriptor("fine"), plan: .load(ScriptedSource(behaviour: .items(["x"], after: 0.05)))),
        ])
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[0].error?.kind == .timeout)
        #expect(report.sources[0].error?.message == "no answer within 0.2 s")
        #expect(report.sources[0].items.map(\.id) == ["early"])
        #expect(report.sources[1].status == .ok)
    }

    @Test("the run's deadline cuts sources whose own timeout is longer")
    func runDeadline() async {
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("hung", timeout: 30), plan: .load(ScriptedSource(behaviour: .hangs(afterEmitting: [])))),
        ], deadlineSeconds: 0.2)
        #expect(report.sources[0].status == .timeout)
        #expect(report.sources[0].error?.message.contains("deadline") == true)
    }

    @Test("skipped and failed plans are reported without running")
    func skipsAndFails() async {
        let missing = SourceError(.configuration, "needs environment variable $KEY")
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("off"), plan: .skip(reason: "disabled in the manifest", error: nil)),
            PlannedSource(descriptor: descriptor("nokey"), plan: .skip(reason: missing.message, error: missing)),
            PlannedSource(descriptor: descriptor("named"), plan: .fail(missing)),
        ])
        #expect(report.sources.map(\.status) == [.skipped, .skipped, .error])
        #expect(report.sources[0].message == "disabled in the manifest")
        #expect(report.sources[2].error == missing)
        #expect(report.hasFailures)
    }

    @Test("disabled sources alone are not failures")
    func disabledIsNotFailure() async {
        let report = await useCase.execute([
            PlannedSource(descriptor: descriptor("off"), plan: .skip(reason: "disabled in the manifest", error: nil)),
        ])
        #expect(!report.hasFailures)
    }

    @Test("an empty plan completes with no sources")
    func emptyPlan() async {
        let report = await useCase.execute([])
        #expect(report.sources.isEmpty)
    }

    @Test("the observer hears every source start and finish")
    func observer() async {
        final class Observer: AggregateObserver {
            let finished = Mutex<[String]>([])
            let started = Mutex<[String]>([])
            func aggregateDidStart(_ sources: [SourceDescriptor]) { started.withLock { $0 = sources.map(\.id) } }
            func source(_ id: String, didDeliver itemCount: Int) {}
            func sourceDidFinish(_ report: SourceReport) { finished.withLock { $0.append(report.id) } }
        }
        let observer = Observer()
        _ = await useCase.execute([
            PlannedSource(descriptor: descriptor("a"), plan: .load(ScriptedSource(behaviour: .items([], after: 0.02)))),
            PlannedSource(descriptor: descriptor("b"), plan: .skip(reason: "off", error: nil)),
        ], observer: observer)
        #expect(observer.started.withLock { $0 } == ["a", "b"])
        #expect(observer.finished.withLock { $0.sorted() } == ["a", "b"])
    }
}

import Synchronization
