@testable import Domain
import Foundation
import Testing

@Suite("A run's cancellation token: handlers and cut sources")
struct RunTokenHandlerTests {
    private func plan(_ ids: [String]) -> [PlannedSource] {
        ids.map { id in
            PlannedSource(
                descriptor: SourceDescriptor(id: id, provider: "test", timeoutSeconds: 30, concurrency: 1),
                plan: .load(ScriptedSource(behaviour: .items(["\(id)1"], after: 0))))
        }
    }

    @Test("a long-lived token (a watch's) keeps no handler of runs that finished")
    func noHandlersLeftBehind() async {
        let token = CancellationToken()
        for _ in 0..<20 {
            let report = await AggregateSourcesUseCase().execute(plan(["a", "b", "c"]), cancellation: token)
            #expect(report.sources.allSatisfy { $0.status == .ok })
        }
        #expect(token.registeredHandlers == 0)
    }

    @Test("cancelling the run times out the sources still loading, and only those")
    func cancelStopsLoading() async {
        let token = CancellationToken()
        let sources = [
            PlannedSource(
                descriptor: SourceDescriptor(id: "quick", provider: "test", timeoutSeconds: 30, concurrency: 1),
                plan: .load(ScriptedSource(behaviour: .items(["q"], after: 0)))),
            PlannedSource(
                descriptor: SourceDescriptor(id: "never", provider: "test", timeoutSeconds: 30, concurrency: 1),
                plan: .load(ScriptedSource(behaviour: .hangs(afterEmitting: ["n"])))),
        ]
        async let report = AggregateSourcesUseCase().execute(sources, cancellation: token)
        token.cancel()  // whenever it lands, "never" is still loading: only a cancel ends it before 30 s
        let finished = await report
        #expect(finished.sources[1].status == .timeout)
        #expect(finished.sources[1].itemCount <= 1, "what it delivered before is kept, nothing after")
        #expect(finished.sources[1].error?.message.contains("cancelled") == true)
    }
}
