import Domain
import Foundation
import ProviderKit
import ProviderTesting
import Testing
import WasmPluginProvider

/// Modules written to break the host: each fails its own source with an error naming the plugin and the reason,
/// and the test process (the host) goes on.
@Suite("Hostile plugins")
struct HostileModuleTests {
    static let item = #"{"type":"item","id":"a","title":"A"}"#

    @Test("an infinite loop runs out of fuel")
    func infiniteLoopRunsOutOfFuel() async throws {
        let wat = PluginFixture.module(run: "(loop $forever (br $forever)) (i32.const 0)")
        let report = try await PluginFixture.run(try PluginFixture.provider(wat, fuel: 5_000_000))
        #expect(report.status == .error)
        #expect(report.error?.message == "plugin 'hostile': ran out of fuel (5000000 operators; plugins[].fuel)")
    }

    /// A loop that asks the host the time: its first host call after the deadline ends it (a loop that calls nothing
    /// is stopped by its fuel; WasmKit cannot interrupt a guest from another thread).
    @Test("an endless loop with fuel to spare is stopped by the source's timeout at its next host call")
    func infiniteLoopTimesOut() async throws {
        let wat = PluginFixture.module(
            imports: [#"(import "wasi_snapshot_preview1" "clock_time_get" (func $now (param i32 i64 i32) (result i32)))"#],
            run: "(loop $forever (drop (call $now (i32.const 1) (i64.const 0) (i32.const 100))) (br $forever)) (i32.const 0)")
        let report = try await PluginFixture.run(try PluginFixture.provider(wat), timeoutSeconds: 0.3)
        #expect(report.status == .timeout)
        #expect(report.error?.kind == .timeout, "\(String(describing: report.error))")
    }

    @Test("a memory bomb stops at memoryPages")
    func memoryBomb() async throws {
        let wat = PluginFixture.module(run: """
            (loop $grow (br_if $grow (i32.ne (memory.grow (i32.const 16)) (i32.const -1))))
            unreachable
            """)
        let report = try await PluginFixture.run(try PluginFixture.provider(wat, memoryPages: 64))
        #expect(report.error?.message == "plugin 'hostile': memory limit reached (64 pages of 64 KiB; plugins[].memoryPages)")
    }

    @Test("a module asking for more memory than memoryPages up front is refused")
    func initialMemoryOverLimit() async throws {
        let wat = PluginFixture.module(run: "(i32.const 0)", pages: 100)
        let report = try await PluginFixture.run(try PluginFixture.provider(wat, memoryPages: 10))
        #expect(report.error?.message.contains("memory limit reached (10 pages") == true)
    }

    @Test("an emit outside the plugin's memory fails the source, naming the pointer", arguments: [
        ("(call $emit (i32.const 4294967280) (i32.const 100))", "emit was given 100 bytes at 4294967280"),
        ("(call $emit (i32.const 131000) (i32.const 100))", "emit was given 100 bytes at 131000"),
        ("(call $emit (i32.const 0) (i32.const -1))", "emit was given 4294967295 bytes at 0"),
    ])
    func outOfBoundsEmit(call: String, expected: String) async throws {
        let wat = PluginFixture.module(imports: [PluginFixture.emitImport], run: "\(call) (i32.const 0)")
        let report = try await PluginFixture.run(try PluginFixture.provider(wat))
        #expect(report.error?.message == "plugin 'hostile': \(expected), outside its 131072-byte memory")
    }

    @Test("an alloc that answers outside memory fails the source before the input is written")
    func lyingAlloc() async throws {
        let wat = """
            (module
              (memory (export "memory") 1)
              (func (export "aggregate_alloc") (param i32) (result i32) (i32.const 65530))
              (func (export "aggregate_run") (param i32 i32) (result i32) (i32.const 0)))
            """
        let report = try await PluginFixture.run(try PluginFixture.provider(wat))
        #expect(report.error?.message.hasPrefix("plugin 'hostile': the input (aggregate_alloc's answer) was given") == true)
    }

    @Test("a trap fails the source with the trap's reason")
    func trap() async throws {
        let report = try await PluginFixture.run(try PluginFixture.provider(PluginFixture.module(run: "unreachable")))
        #expect(report.error?.message.hasPrefix("plugin 'hostile': trapped: ") == true)
        #expect(report.error?.message.contains("unreachable") == true)
    }

    @Test("a request to a host not allowed is refused, naming the host, and never sent")
    func hostNotAllowed() async throws {
        let server = try await FixtureServer.start()
        server.fallback(.json("{}"))
        let request = #"{"method":"GET","url":"\#(server.baseURL.absoluteString)/secret"}"#
        let wat = PluginFixture.module(
            imports: [#"(import "aggregate_v1" "http_request" (func $http (param i32 i32) (result i32)))"#],
            data: [(1_000, request)], run: "(drop (call $http (i32.const 1000) (i32.const \(request.utf8.count)))) (i32.const 0)")
        let report = try await PluginFixture.run(try PluginFixture.provider(wat, allowedHosts: ["api.acme.example"]))
        let count = server.requestCount
        await server.stop()
        #expect(report.error?.message == "plugin 'hostile': request to '127.0.0.1' refused: not in the plugin's allowedHosts")
        #expect(report.error?.kind == .configuration)
        #expect(count == 0)
    }

    @Test("an attempt to open a file gets ENOTCAPABLE, and no other capability stands in")
    func openFile() async throws {
        // path_open(fd 3, flags 0, "/etc/passwd", …) must answer 76; anything else traps.
        let wat = PluginFixture.module(
            imports: [
                PluginFixture.emitImport,
                #"(import "wasi_snapshot_preview1" "path_open" (func $open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))"#,
                #"(import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))"#,
            ],
            data: [(1_000, Self.item), (2_000, "/etc/passwd")],
            run: """
                (if (i32.ne (call $open (i32.const 3) (i32.const 0) (i32.const 2000) (i32.const 11) (i32.const 0)
                                        (i64.const -1) (i64.const -1) (i32.const 0) (i32.const 3000)) (i32.const 76))
                  (then unreachable))
                (if (i32.ne (call $read (i32.const 3) (i32.const 3100) (i32.const 1) (i32.const 3200)) (i32.const 76))
                  (then unreachable))
                (call $emit (i32.const 1000) (i32.const \(Self.item.utf8.count)))
                (i32.const 0)
                """)
        let report = try await PluginFixture.run(try PluginFixture.provider(wat))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["a"])
    }

    @Test("a module importing what the host lacks is refused, naming the import")
    func unknownImport() async throws {
        let wat = PluginFixture.module(imports: [#"(import "env" "system" (func $system (param i32) (result i32)))"#], run: "(i32.const 0)")
        let report = try await PluginFixture.run(try PluginFixture.provider(wat))
        #expect(report.error?.message.contains("it imports env.system, which the host does not provide") == true)
    }

    @Test("10 MB of output stops at maxOutputBytes")
    func tenMegabytes() async throws {
        let message = #"{"type":"item","title":"\#(String(repeating: "x", count: 1_000))"}"#
        let wat = PluginFixture.module(
            imports: [PluginFixture.emitImport], data: [(1_000, message)],
            run: """
                (local $n i32)
                (loop $again
                  (call $emit (i32.const 1000) (i32.const \(message.utf8.count)))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  (br_if $again (i32.lt_u (local.get $n) (i32.const 10000))))
                (i32.const 0)
                """)
        let report = try await PluginFixture.run(try PluginFixture.provider(wat), options: ["maxOutputBytes": 1_000_000])
        #expect(report.error?.message == "plugin 'hostile': wrote more than 1000000 bytes (maxOutputBytes)")
        #expect(report.items.count < 1_000)
    }

    @Test("lies about the protocol fail the source", arguments: [
        (["not json"], Int32(0), "plugin 'hostile': broke ABI v1: emit was given something other than a JSON object"),
        ([#"{"type":"item","url":"no scheme"}"#], 0, "plugin 'hostile': broke ABI v1: item 1: \"url\" is not an absolute URL"),
        ([#"{"type":"shout"}"#], 0, "plugin 'hostile': broke ABI v1: emit: unknown message type 'shout' (item, warning, error, problem)"),
        ([], 3, "plugin 'hostile': returned 3 without emitting an error"),
        ([#"{"type":"error","kind":"notFound","message":"no such city"}"#], 1, "plugin 'hostile': no such city"),
    ])
    func lies(messages: [String], code: Int32, expected: String) async throws {
        let report = try await PluginFixture.run(try PluginFixture.provider(PluginFixture.emitting(messages, code: code)))
        #expect(report.error?.message == expected)
    }

    @Test("50 plugin sources at once: the good ones deliver, the looping ones fail, and the run ends")
    func fiftyAtOnce() async throws {
        let modules = PluginModuleCache()
        let good = try PluginFixture.provider(PluginFixture.emitting([Self.item]), name: "good", modules: modules)
        let looping = try PluginFixture.provider(
            PluginFixture.module(run: "(loop $forever (br $forever)) (i32.const 0)"), name: "loop", fuel: 2_000_000, modules: modules)
        var planned: [PlannedSource] = []
        for index in 0..<50 {
            let provider = index % 5 == 4 ? looping : good
            let source = try provider.makeSource(.testing(id: "s\(index)", options: [:]))
            planned.append(PlannedSource(
                descriptor: SourceDescriptor(id: "s\(index)", provider: provider.name, timeoutSeconds: 30, concurrency: 1),
                plan: .load(source)))
        }
        let report = await AggregateSourcesUseCase().execute(planned)
        #expect(report.sources.count == 50)
        for (index, source) in report.sources.enumerated() {
            if index % 5 == 4 {
                #expect(source.error?.message.contains("plugin 'loop': ran out of fuel") == true)
            } else {
                #expect(source.status == .ok && source.items.map(\.id) == ["a"], "\(source.descriptor.id): \(String(describing: source.error))")
            }
        }
    }
}
