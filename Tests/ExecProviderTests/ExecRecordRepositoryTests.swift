import Domain
import ExecProvider
import Foundation
import Processes
import ProviderTesting
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Exec provider runs real programs")
struct ExecRecordRepositoryTests {
    @Test("our item shape becomes record items, in the program's order")
    func itemShape() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("items.sh", #"""
            echo '{"type":"item","id":"a1","title":"First","subtitle":"one","url":"https://example.org/a","date":"2026-11-22T10:00:00Z","fields":{"count":3,"tags":["x"]}}'
            echo ''
            printf '{"type":"item","id":42,"title":"Second"}\r\n'
            printf '{"type":"item","title":"No id"}'
            """#)
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url))
        #expect(report.status == .ok)
        #expect(report.error == nil)
        #expect(report.items.map(\.id) == ["a1", "42", "line-4"])
        #expect(report.items.allSatisfy { $0.kind == .record })
        let first = try #require(report.items.first)
        #expect(first.title == "First")
        #expect(first.subtitle == "one")
        #expect(first.url == URL(string: "https://example.org/a"))
        #expect(first.date == ISO8601.date(from: "2026-11-22T10:00:00Z"))
        #expect(first.fields == ["count": 3, "tags": ["x"]])
        #expect(report.items[2].title == "No id")
    }

    @Test("Singer RECORDs become record items keyed by the stream's SCHEMA key_properties")
    func singer() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("tap.sh", #"""
            echo '{"type":"SCHEMA","stream":"users","schema":{"type":"object"},"key_properties":["id"]}'
            echo '{"type":"RECORD","stream":"users","record":{"id":1,"name":"Ada"}}'
            echo '{"type":"RECORD","stream":"users","record":{"id":2,"name":"Lin"}}'
            echo '{"type":"STATE","value":{"users":2}}'
            echo '{"type":"RECORD","stream":"events","record":{"what":"login"}}'
            echo '{"type":"ACTIVATE_VERSION","stream":"users","version":1}'
            echo '{"type":"ACTIVATE_VERSION","stream":"users","version":2}'
            echo '{"type":"STATE","value":{"users":2,"events":1}}'
            """#)
        let logs = LogCapture()
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url, logger: logs.logger()))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["users/1", "users/2", "events/line-5"])
        #expect(report.items.map(\.title) == ["Ada", "Lin", "events/line-5"])
        #expect(report.items.map(\.subtitle) == ["users", "users", "events"])
        #expect(report.items.allSatisfy { $0.kind == .record })
        #expect(report.items[0].fields == ["id": 1, "name": "Ada"])
        #expect(report.warnings == ["ignored message type 'ACTIVATE_VERSION' (2 lines from line 6)"])
        #expect(logs.messages(at: .info).contains("ignored 2 Singer STATE message(s)"))
    }

    @Test("the program reads the source id and options.config on stdin, in the manifest's directory")
    func optionsOnStdin() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("echo.sh", #"""
            IFS= read -r line
            printf '{"type":"item","id":"echo","title":"%s","fields":{"input":%s}}\n' "$(pwd -P)" "$line"
            """#)
        let config: JSONValue = ["city": "Seoul", "limits": [1, 2.5], "nested": ["on": true]]
        let report = await run(try makeSource(["command": [.string(program)], "config": config], in: scripts.url, id: "mine"))
        #expect(report.status == .ok)
        let item = try #require(report.items.first)
        #expect(item.fields["input"] == ["source": "mine", "options": config])
        #expect(item.title == scripts.url.resolvingSymlinksInPath().path)
    }

    @Test("with input file the options arrive in a private file passed last, removed after the run")
    func optionsInFile() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("file.sh", #"""
            for last in "$@"; do :; done
            printf '%s\n' "$last" > path.txt
            mode=$(ls -l "$last" | cut -c1-10)
            printf '{"type":"item","id":"%s","title":"%s","fields":{"input":%s}}\n' "$1" "$mode" "$(cat "$last")"
            """#)
        let report = await run(try makeSource(
            ["command": [.string(program), "first"], "input": "file", "config": ["n": 1]], in: scripts.url))
        let item = try #require(report.items.first)
        #expect(item.id == "first")
        #expect(item.title == "-rw-------")
        #expect(item.fields["input"] == ["source": "ext", "options": ["n": 1]])
        let path = try #require(scripts.read("path.txt")).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(path.hasSuffix(".json"))
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a non-zero exit fails the source with the status and the last stderr lines, all of them logged")
    func nonZeroExit() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("fail.sh", #"""
            echo '{"type":"item","id":"kept","title":"kept"}'
            for n in 1 2 3 4 5 6 7; do echo "problem $n" >&2; done
            exit 3
            """#)
        let logs = LogCapture()
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url, logger: logs.logger()))
        #expect(report.status == .error)
        #expect(report.items.map(\.id) == ["kept"])
        let error = try #require(report.error)
        #expect(error.kind == .io)
        #expect(error.message == "'./fail.sh' exited with status 3: problem 3 | problem 4 | problem 5 | problem 6 | problem 7")
        #expect(logs.messages(at: .info).filter { $0.hasPrefix("stderr: ") }.count == 7)
    }

    @Test("a program past its deadline is terminated with its children, and what it printed is kept")
    func timeout() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("slow.sh", #"""
            echo '{"type":"item","id":"early","title":"early"}'
            sleep 3600 &  # stands in for a program that runs until stopped
            echo $! > child.pid
            echo $$ > pid
            wait
            """#)
        let command = ExecCommand(sourceID: "slow", argv: [program], baseDirectory: scripts.url)
        let result = await stream(command, timeout: 1)
        #expect(result.error?.kind == .timeout)
        #expect(result.error?.message == "'./slow.sh' did not finish within 1 s and was stopped")
        #expect(result.records.map(\.id) == ["early"])
        let pid = try #require(await scripts.waitForFile("pid").flatMap { pid_t($0) })
        let child = try #require(await scripts.waitForFile("child.pid").flatMap { pid_t($0) })
        #expect(await isGone(pid))
        #expect(await isGone(child))
    }

    @Test("a program that exits leaving a background process on its output completes without waiting for the timeout")
    func backgroundHolder() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("leaves-child.sh", #"""
            echo '{"type":"item","id":"done","title":"done"}'
            sleep 30 &  # a child left running after the script exits: what is stopped
            echo $! > child.pid
            exit 0
            """#)
        let command = ExecCommand(sourceID: "leaver", argv: [program], baseDirectory: scripts.url)
        // Had the run waited for the output to close, the 30 s deadline would have made it a timeout.
        let result = await stream(command, timeout: 30, gracePeriod: 0.5)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.records.map(\.id) == ["done"])
        #expect(result.warnings == ["'./leaves-child.sh' exited, but a process it left running kept its output open; "
            + "stopped reading 0.5 s after the exit, and stopped that process"])
        let child = try #require(await scripts.waitForFile("child.pid").flatMap { pid_t($0) })
        #expect(await isGone(child))
    }

    @Test("a program that ignores SIGTERM is killed after the grace period")
    func stubbornProgram() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("stubborn.sh", #"""
            trap '' TERM
            echo $$ > pid
            while :; do sleep 0.1; done  # ignores SIGTERM and runs until SIGKILL
            """#)
        let command = ExecCommand(sourceID: "stubborn", argv: [program], baseDirectory: scripts.url)
        let clock = TestClock()
        let logs = LogCapture()
        let killed = { logs.messages.contains { $0.contains("sending SIGKILL") } }
        async let result = stream(command, timeout: 1, gracePeriod: 0.5, logger: logs.logger(), clock: clock)
        let pid = try #require(await scripts.waitForFile("pid").flatMap { pid_t($0) })  // running, SIGTERM ignored
        await clock.waitForWakeUps(1)  // the timeout
        clock.advance(by: 1)  // time is up: SIGTERM
        await clock.waitForWakeUps(1)  // the grace period, set once the stop was taken in hand
        clock.advance(by: 0.4)
        #expect(!killed(), "within the grace period the program is left to end by itself")
        #expect(isAlive(pid))
        clock.advance(by: 0.1)  // the grace period is over: SIGKILL
        #expect(killed())
        #expect(await result.error?.kind == .timeout)
        #expect(await isGone(pid))
    }

    @Test("when the run's time is up the source reports a timeout and the program is killed")
    func cancelledThroughAggregate() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("hang.sh", #"""
            echo '{"type":"item","id":"before","title":"before"}'
            echo $$ > pid
            sleep 3600  # stands in for a program that runs until stopped
            """#)
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url), timeout: 1)
        #expect(report.status == .timeout)
        #expect(report.items.map(\.id) == ["before"])
        let pid = try #require(await scripts.waitForFile("pid").flatMap { pid_t($0) })
        #expect(await isGone(pid))
    }

    @Test("an invalid JSON line fails the source with its line number and the valid lines are kept")
    func invalidLine() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("bad.sh", #"""
            echo '{"type":"item","id":"1","title":"one"}'
            echo 'this is not JSON'
            echo '{"type":"item","id":"2","title":"two"}'
            echo '[1, 2]'
            echo '{"type":"item","id":"3","title":"three","date":"yesterday"}'
            echo '{"type":"item","id":"4","title":"four"}'
            """#)
        let report = await run(try makeSource(["command": [.string(program)]], in: scripts.url))
        #expect(report.status == .error)
        #expect(report.items.map(\.id) == ["1", "2", "4"])
        #expect(report.error == SourceError(.parse, "stdout line 2: not valid JSON (3 invalid lines in all); 3 valid records kept"))
    }

    @Test("output over maxOutputBytes stops the program with a typed error, keeping the lines within the cap")
    func outputCap() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let line = #"{"type":"item","id":"x","title":"flood"}"#
        let program = try scripts.script("flood.sh", #"""
            echo $$ > pid
            while :; do echo '\#(line)'; done
            """#)
        let command = ExecCommand(sourceID: "flood", argv: [program], maxOutputBytes: 1000, baseDirectory: scripts.url)
        let result = await stream(command)
        #expect(result.error == SourceError(
            .badResponse, "'./flood.sh' wrote more than 1000 bytes to stdout (maxOutputBytes) and was stopped"))
        #expect(result.records.count == 1000 / (line.utf8.count + 1))  // whole lines within the cap
        let pid = try #require(await scripts.waitForFile("pid").flatMap { pid_t($0) })
        #expect(await isGone(pid))
    }

    @Test("a missing or non-executable command is a clear error of that source")
    func commandNotFound() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        try Data("echo hi\n".utf8).write(to: scripts.url.appendingPathComponent("plain.sh"))

        let onPath = await stream(ExecCommand(sourceID: "s", argv: ["no-such-program-for-aggregate"], baseDirectory: scripts.url))
        #expect(onPath.error == SourceError(.notFound, "command 'no-such-program-for-aggregate' not found on PATH"))

        let relative = await stream(ExecCommand(sourceID: "s", argv: ["bin/missing.sh"], baseDirectory: scripts.url))
        #expect(relative.error?.kind == .notFound)
        #expect(relative.error?.message.contains(scripts.path("bin/missing.sh")) == true)

        let notExecutable = await stream(ExecCommand(sourceID: "s", argv: ["./plain.sh"], baseDirectory: scripts.url))
        #expect(notExecutable.error?.kind == .configuration)
        #expect(notExecutable.error?.message.contains("is not executable") == true)
    }

    @Test("options.env reaches the program over a minimal inherited environment")
    func environment() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("env.sh", #"""
            printf '{"type":"item","id":"env","title":"env","fields":{"greeting":"%s","home":"%s","other":"%s"}}\n' \
                "$GREETING" "$HOME" "${OTHER_TOKEN:-absent}"
            """#)
        let command = ExecCommand(
            sourceID: "s", argv: ["sh", program], environment: ["GREETING": "hello there"], baseDirectory: scripts.url)
        let result = await stream(command, parentEnvironment: ["PATH": "/usr/bin:/bin", "HOME": "/home/tester", "OTHER_TOKEN": "leak"])
        #expect(result.error == nil)
        #expect(result.records.first?.fields == ["greeting": "hello there", "home": "/home/tester", "other": "absent"])
    }

    @Test("secrets from options never appear in the error or the logs, even when the program prints them")
    func noSecrets() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("leaky.sh", #"""
            cat >&2
            echo >&2
            echo "using token $API_TOKEN" >&2
            exit 1
            """#)
        let logs = LogCapture()
        let report = await run(try makeSource(
            ["command": [.string(program)], "env": ["API_TOKEN": "tok-0123456789"],
             "config": ["apiKey": "sk-live-abcdef", "city": "Seoul"]],
            in: scripts.url, logger: logs.logger()))
        let message = try #require(report.error?.message)
        #expect(message.contains("exited with status 1"))
        #expect(message.contains("using token ***"))
        #expect(message.contains("Seoul"))
        for secret in ["tok-0123456789", "sk-live-abcdef"] {
            #expect(!message.contains(secret))
            #expect(!logs.messages.contains { $0.contains(secret) })
        }
    }

    /// libdispatch never finished such a write on Linux (and spun a core until the process exited), so this
    /// run's input was never closed nor its shortfall logged.
    @Test("a program that exits without reading a large input ends the input, and the shortfall is logged")
    func unreadInput() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("ignores-input.sh", #"echo '{"type":"item","id":"1","title":"done"}'"#)
        let bigConfig: JSONValue = ["blob": .string(String(repeating: "z", count: 1_000_000))]
        let logs = LogCapture()
        let report = await run(
            try makeSource(["command": [.string(program)], "config": bigConfig], in: scripts.url, logger: logs.logger()))
        #expect(report.status == .ok)
        #expect(report.items.map(\.id) == ["1"])
        let shortfall = logs.messages(at: .debug).first { $0.contains("ignores-input.sh' took ") }
        let counts = try #require(shortfall).split(separator: " ").compactMap { Int($0) }
        #expect(counts.count == 2)
        #expect(counts.first.map { $0 < 1_000_000 } == true)
        #expect(counts.last.map { $0 > 1_000_000 } == true)  // the whole input: the config and the envelope
    }

    @Test("a consumer still busy when the program has long exited loses none of its lines, and no warning says it left anything")
    func slowConsumer() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("quick.sh", #"""
            echo '{"type":"item","id":"0"}'
            sleep 0.2  # the pause is the subject: the first line's batch is taken before the rest comes
            i=1
            while [ $i -lt 1000 ]; do echo "{\"type\":\"item\",\"id\":\"$i\"}"; i=$((i + 1)); done
            """#)
        let command = ExecCommand(sourceID: "quick", argv: [program], baseDirectory: scripts.url)
        let first = Atomic(true)
        // The first line's batch is held four grace periods: the program writes the rest and exits meanwhile. The
        // delay is the subject (a consumer slower than the program), so it is a sleep, not a wait for an event.
        let result = await stream(command, gracePeriod: 0.3) { _ in
            if first.exchange(false, ordering: .relaxed) { Thread.sleep(forTimeInterval: 1.2) }  // the delay is the subject (above)
        }
        #expect(result.error == nil)
        #expect(result.records.count == 1000)
        #expect(result.records.last?.id == "999")
        #expect(result.warnings.isEmpty)
    }

    @Test("heavy stdout and stderr together neither deadlock nor lose lines; unread input does not hurt")
    func noDeadlock() async throws {
        let scripts = try ScratchDirectory.Folder("exec-tests")
        let program = try scripts.script("busy.sh", #"""
            i=0
            while [ $i -lt 3000 ]; do
                echo "{\"type\":\"item\",\"id\":\"$i\",\"title\":\"row $i\"}"
                echo "progress line $i with some padding to fill the stderr pipe quickly......................." >&2
                i=$((i + 1))
            done
            """#)
        let bigConfig: JSONValue = ["blob": .string(String(repeating: "z", count: 1_000_000))]
        let report = await run(try makeSource(["command": [.string(program)], "config": bigConfig], in: scripts.url))
        #expect(report.status == .ok)
        #expect(report.items.count == 3000)
        #expect(report.items.last?.id == "2999")
    }
}
