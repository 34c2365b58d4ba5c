import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
@testable import WasmPluginProvider

/// A loop that calls nothing is stopped by its fuel alone, so the host gives it no more fuel than the source's time
/// left is worth: it stops at the timeout, named as one, and not minutes later at its declared fuel.
@Suite("Plugin time budget")
struct PluginTimeBudgetTests {
    static let pureLoop = PluginFixture.module(run: "(loop $forever (br $forever)) (i32.const 0)")

    // MARK: - The budget, without clocks

    @Test("the time left bounds a slice when it is worth less than the fuel left, and running out is then a timeout")
    func timeBoundsTheSlice() {
        var budget = PluginFuelBudget(declared: 1_000_000, fuelPerSecond: 1_000)
        #expect(budget.nextSlice(secondsLeft: 2, remaining: nil) == 2_000)
        #expect(budget.bound == .time)
        #expect(budget.exhaustion == .timedOut)
    }

    @Test("the declared fuel bounds a slice when it is the smaller, and running out is then out of fuel")
    func declaredBoundsTheSlice() {
        var budget = PluginFuelBudget(declared: 500, fuelPerSecond: 1_000)
        #expect(budget.nextSlice(secondsLeft: 2, remaining: nil) == 500)
        #expect(budget.exhaustion == .outOfFuel(500))
        var unbounded = PluginFuelBudget(declared: 500, fuelPerSecond: 1_000)
        #expect(unbounded.nextSlice(secondsLeft: nil, remaining: nil) == 500)
        #expect(unbounded.exhaustion == .outOfFuel(500))
    }

    @Test("each slice counts what the last one spent against the declared fuel")
    func slicesSpendTheDeclaredFuel() {
        var budget = PluginFuelBudget(declared: 10_000, fuelPerSecond: 1_000)
        #expect(budget.nextSlice(secondsLeft: 3, remaining: nil) == 3_000)
        // 2,500 spent; 7,500 left, of which the 3 seconds left are worth 3,000.
        #expect(budget.nextSlice(secondsLeft: 3, remaining: 500) == 3_000)
        #expect(budget.spent == 2_500)
        // 3,000 more spent: 4,500 left, less than 9 seconds' worth.
        #expect(budget.nextSlice(secondsLeft: 9, remaining: 0) == 4_500)
        #expect(budget.bound == .declared)
        #expect(budget.nextSlice(secondsLeft: 9, remaining: 0) == 0)
        #expect(budget.exhaustion == .outOfFuel(10_000))
    }

    @Test("no time left is no fuel, whatever the declared fuel", arguments: [0.0, -1.0])
    func noTimeNoFuel(secondsLeft: Double) {
        var budget = PluginFuelBudget(declared: .max, fuelPerSecond: 1_000)
        #expect(budget.nextSlice(secondsLeft: secondsLeft, remaining: nil) == 0)
        #expect(budget.exhaustion == .timedOut)
        #expect(PluginFuelBudget.fuel(seconds: 1e30, perSecond: .max) == .max)
    }

    // MARK: - A run

    /// The run returns only once the guest stopped: with the declared default fuel and a deadline already passed
    /// (or one 50 ms away), it stops as a timeout; without the budget it would run on to "ran out of fuel".
    @Test("a pure loop with the default fuel stops at its deadline, as a timeout", arguments: [0.0, 0.05])
    func pureLoopStopsAtTheDeadline(seconds: Double) throws {
        let url = try PluginFixture.write(Self.pureLoop)
        let module = try PluginModuleCache().module(at: url).module
        let declaration = PluginDeclaration(name: "spinner", module: url, allowedHosts: [])
        let run = PluginRun(
            plugin: declaration,
            limits: .init(fuel: declaration.fuel, memoryPages: 4, maxOutputBytes: 1_000, deadline: .now + .seconds(seconds)),
            http: nil, state: PluginState([:]), cancellation: nil)
        let failure = run.execute(module, entry: .run, input: Array("{}".utf8))
        #expect(failure == .timedOut)
        #expect(failure?.sourceError(plugin: "spinner") == SourceError(.timeout, "plugin 'spinner': stopped: the source's time ran out"))
    }

    @Test("a pure loop with little fuel and time to spare runs out of fuel, named as such")
    func pureLoopOutOfFuel() throws {
        let url = try PluginFixture.write(Self.pureLoop)
        let module = try PluginModuleCache().module(at: url).module
        let declaration = PluginDeclaration(name: "spinner", module: url, allowedHosts: [], fuel: 1_000_000)
        let run = PluginRun(
            plugin: declaration,
            limits: .init(fuel: declaration.fuel, memoryPages: 4, maxOutputBytes: 1_000, deadline: .now + .seconds(3_600)),
            http: nil, state: PluginState([:]), cancellation: nil)
        #expect(run.execute(module, entry: .run, input: Array("{}".utf8)) == .outOfFuel(1_000_000))
    }

    @Test("a looping plugin source with the default fuel times out; the others finish")
    func loopingSourceAmongOthers() async throws {
        let modules = PluginModuleCache()
        let good = try PluginFixture.provider(PluginFixture.emitting([HostileModuleTests.item]), name: "good", modules: modules)
        let looping = try PluginFixture.provider(Self.pureLoop, name: "spinner", modules: modules)
        var planned: [PlannedSource] = []
        for (index, provider) in [good, looping, good].enumerated() {
            let timeout = provider.name == "spinner" ? 0.2 : SourceRunner.roomyTimeout
            let source = try provider.makeSource(.testing(id: "s\(index)", options: [:], timeoutSeconds: timeout))
            planned.append(PlannedSource(
                descriptor: SourceDescriptor(id: "s\(index)", provider: provider.name, timeoutSeconds: timeout, concurrency: 1),
                plan: .load(source)))
        }
        let report = await AggregateSourcesUseCase().execute(planned)
        // The engine's own deadline or the plugin's, whichever reports first: a timeout either way.
        #expect(report.sources.map(\.status) == [.ok, .timeout, .ok])
        #expect(report.sources[1].error?.kind == .timeout)
        #expect(report.sources[0].items.map(\.id) == ["a"] && report.sources[2].items.map(\.id) == ["a"])
    }
}
