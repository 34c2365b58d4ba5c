import Domain
import Foundation
import ProviderKit

extension ProviderConformance {
    // MARK: - Option paths

    static func optionPaths(_ subject: ConformanceSubject) async throws -> [String] {
        var violations: [String] = []
        let valid = workingOptions(subject, baseURL: URL(string: "http://127.0.0.1:9")!)
        do { _ = try makeSource(subject, options: valid) } catch {
            violations.append("working options were refused: \(error.description)")
        }
        var cases: [ConformanceSubject.InvalidOptions] = [
            .init("options that are not an object", options: "not an object", path: root),
        ]
        if case .object(let object) = valid {
            var unknown = object
            unknown["conformanceUnknownOption"] = true
            cases.append(.init("an unknown option", options: .object(unknown), path: "\(root).conformanceUnknownOption"))
            for spec in subject.provider.options where spec.required {
                var missing = object
                missing[spec.name] = nil
                cases.append(.init("missing required '\(spec.name)'", options: .object(missing), path: "\(root).\(spec.name)"))
            }
        }
        for invalid in cases + subject.invalidOptions {
            do {
                _ = try makeSource(subject, options: invalid.options)
                violations.append("\(invalid.label): accepted")
            } catch {
                let paths = error.problems.map(\.path)
                if !paths.contains(invalid.path) {
                    violations.append("\(invalid.label): no problem at \(invalid.path) (found: \(paths.joined(separator: ", ")))")
                }
                for problem in error.problems {
                    let underRoot = problem.path == root || problem.path.hasPrefix(root + ".") || problem.path.hasPrefix(root + "[")
                    if !underRoot { violations.append("\(invalid.label): '\(problem)' has no JSON path under \(root)") }
                    if let why = messageProblem(problem.message) { violations.append("\(invalid.label): the message \(why)") }
                }
            }
        }
        return violations
    }

    // MARK: - Error taxonomy

    static func errorTaxonomy(_ subject: ConformanceSubject) async throws -> [String] {
        var violations: [String] = []
        for (label, run, expected) in try await failureRuns(subject) {
            let report = run.report
            if let fault = HTTPFault.allCases.first(where: { label == "HTTP fault \($0.rawValue)" }), subject.warnedFaults.contains(fault) {
                if report.status != .ok || report.warnings.isEmpty {
                    violations.append("\(label): the source was \(report.status.rawValue) with \(report.warnings.count) warnings, "
                        + "expected ok with a warning")
                }
                continue
            }
            guard report.status == .error || report.status == .timeout, let error = report.error else {
                violations.append("\(label): the source was \(report.status.rawValue), expected a \(expected.rawValue) error"
                    + (report.warnings.isEmpty ? "" : " (warnings: \(report.warnings.joined(separator: "; ")))"))
                continue
            }
            if error.kind != expected {
                violations.append("\(label): \(error.kind.rawValue) (\(error.message)), expected \(expected.rawValue)")
            }
            if let why = messageProblem(error.message) { violations.append("\(label): the message \(why): \(error.message)") }
        }
        return violations
    }

    /// Every failure scenario of the subject, run: scripted HTTP faults, or the local subject's failures.
    static func failureRuns(_ subject: ConformanceSubject) async throws -> [(String, Run, SourceError.Kind)] {
        var runs: [(String, Run, SourceError.Kind)] = []
        switch subject.backend {
        case .http(let options, let success):
            let successResponse = try success()
            for fault in HTTPFault.allCases {
                let expected = subject.expectedKinds[fault] ?? fault.defaultKind
                let secret = subject.secrets.first ?? "s3cr3t-conformance"
                let response = fault.response(success: successResponse, secret: secret)
                let routes = try routes(subject) { fault.response(success: $0, secret: secret).map { [$0] } ?? [] }
                let run = try await withServer(response.map { [$0] } ?? [], routes: routes) { server in
                    let baseURL = fault == .connectionRefused ? try await FixtureServer.refusedURL() : server.baseURL
                    // Every fault here answers at once: the default timeout leaves room for a loaded machine.
                    return try await Self.run(subject, options: withoutRetries(options(baseURL), subject))
                }
                runs.append(("HTTP fault \(fault.rawValue)", run, expected))
            }
        case .local:
            // Every failure here ends at once: the default timeout only bounds a hang, with room for a loaded machine.
            for failure in subject.failures {
                runs.append((failure.label, try await run(subject, options: failure.options), failure.kind))
            }
        }
        return runs
    }

    // MARK: - Secrecy

    static func secrecy(_ subject: ConformanceSubject) async throws -> [String] {
        guard !subject.secrets.isEmpty else { return ["no secrets given: name the credential values the options carry"] }
        var violations: [String] = []
        for (label, run, _) in try await failureRuns(subject) {
            violations += leaks(in: SourceRunner.texts(of: run.report) + run.logs, secrets: subject.secrets, context: label)
        }
        let working = try await successRun(subject)
        violations += leaks(in: SourceRunner.texts(of: working.report) + working.logs, secrets: subject.secrets, context: "a working run")
        // Option problems around the credential (plain http to a remote host, a typo next to it).
        if case .object(var object) = workingOptions(subject, baseURL: URL(string: "http://127.0.0.1:9")!) {
            if subject.provider.options.contains(where: { $0.name == "baseURL" }) { object["baseURL"] = "http://example.com" }
            object["conformanceUnknownOption"] = .string(subject.secrets[0])
            do { _ = try makeSource(subject, options: .object(object)) } catch {
                violations += leaks(in: error.problems.map(\.description), secrets: subject.secrets, context: "option problems")
            }
        }
        return violations
    }

    /// A run of the working options (against a server answering `success` for HTTP subjects).
    static func successRun(_ subject: ConformanceSubject, concurrency: Int = 4) async throws -> Run {
        switch subject.backend {
        case .http(let options, let success):
            return try await withServer([try success()], routes: try routes(subject)) { server in
                try await run(subject, options: options(server.baseURL), concurrency: concurrency)
            }
        case .local(let options, _):
            return try await run(subject, options: options, concurrency: concurrency)
        }
    }

    // MARK: - Timeout

    static func timeout(_ subject: ConformanceSubject) async throws -> [String] {
        var violations: [String] = []
        func judgeStatus(_ label: String, _ run: Run) {
            if run.report.status != .timeout || run.report.error?.kind != .timeout {
                violations.append("\(label): the source was \(run.report.status.rawValue) (\(run.report.error?.description ?? "no error")), expected timeout")
            }
        }
        switch subject.backend {
        case .http(let options, let success):
            let response = try success()
            // The stalls end when the check releases them, after it judged the report; their own length only
            // bounds a provider that waits for them (its report would come after they ended: a violation).
            let stalls: [(String, @Sendable (FixtureResponse) -> FixtureResponse)] = [
                ("a server that never answers", { $0.delayed(stallSeconds) }),
                ("a body that stalls half-way", { $0.with(.stallBody(afterBytes: max(1, $0.body.count / 2), seconds: stallSeconds)) }),
            ]
            for (label, stall) in stalls {
                for timeoutSeconds in stallTimeouts {
                    let judged = try await withServer([stall(response)], routes: try routes(subject) { [stall($0)] }) { server in
                        let run = try await run(subject, options: options(server.baseURL), timeoutSeconds: timeoutSeconds, concurrency: 1)
                        // Compared by events, not by the clock: the report came while the stalled answer was still
                        // being served, so the source did not wait for it, however slow the machine.
                        let stillStalled = server.requestsInFlight
                        let settled = server.requestCount
                        // A loaded machine may not have sent the first request before the deadline: nothing to judge
                        // yet, so again with more time.
                        if settled == 0, timeoutSeconds != stallTimeouts.last {
                            server.releaseStalls()
                            return false
                        }
                        judgeStatus(label, run)
                        if settled == 0 {
                            violations.append("\(label): no request reached the server within \(timeoutSeconds) s")
                        } else if stillStalled == 0 {
                            violations.append("\(label): reported only after the stalled answer ended (the source waited for it)")
                        }
                        // Once the stalls are released, at most the one request that raced the deadline (concurrency
                        // 1) may come after the report: more means the provider went on to its next unit although the
                        // source was cancelled. Released, its answer comes at once and such a provider moves on, so
                        // the check waits for two more requests, up to 2 s: a provider that honours its cancellation
                        // never sends them, and only its check waits that long. (Waiting for nothing in flight
                        // alone passed a provider whose next request was not yet sent: a loaded machine's gap.)
                        server.releaseStalls()
                        _ = try await eventually(within: 2) { server.requestCount > settled + 1 }
                        _ = try await eventually(within: 60) { server.requestsInFlight == 0 }
                        if server.requestCount > settled + 1 {
                            violations.append("\(label): \(server.requestCount - settled) request(s) started after the deadline")
                        }
                        return true
                    }
                    if judged { break }
                }
            }
        case .local:
            guard let stalledOptions = subject.stalledOptions else {
                return ["no stalledOptions given: a local subject needs options whose source never finishes by itself"]
            }
            let run = try await run(subject, options: stalledOptions, timeoutSeconds: stallTimeout)
            judgeStatus("a source that never finishes", run)
            // It never finishes by itself, so a report at all is the proof that the timeout ended it.
        }
        return violations
    }

    // MARK: - Concurrency

    static func boundedConcurrency(_ subject: ConformanceSubject) async throws -> [String] {
        guard case .http(let options, let success) = subject.backend else {
            return ["concurrency is measured at a loopback server: only HTTP subjects can be checked"]
        }
        let limit = 2
        return try await withServer([try success().delayed(0.2)], routes: try routes(subject) { [$0.delayed(0.2)] }) { server in
            let run = try await run(subject, options: options(server.baseURL), concurrency: limit)
            var violations: [String] = []
            if run.report.status != .ok {
                violations.append("the source was \(run.report.status.rawValue): \(run.report.error?.description ?? "")")
            }
            if server.requestCount <= limit {
                violations.append("the options made only \(server.requestCount) request(s): give more units than \(limit) so the limit is tested")
            }
            if server.peakConcurrentRequests > limit {
                violations.append("\(server.peakConcurrentRequests) requests were in flight at once with concurrency \(limit)")
            }
            return violations
        }
    }

    // MARK: - Items

    static func stableItems(_ subject: ConformanceSubject) async throws -> [String] {
        let first = try await successRun(subject), second = try await successRun(subject)
        var violations: [String] = []
        for (label, run) in [("first run", first), ("second run", second)] where run.report.status != .ok {
            violations.append("\(label): the source was \(run.report.status.rawValue): \(run.report.error?.description ?? "")")
        }
        if first.report.items.isEmpty { violations.append("the working options gave no items") }
        for item in first.report.items {
            if item.id.trimmingCharacters(in: .whitespaces).isEmpty { violations.append("an item has an empty id: \(item.title)") }
            if item.kind != subject.kind { violations.append("item \(item.id) is a \(item.kind.rawValue), expected \(subject.kind.rawValue)") }
            if subject.camelCaseFieldKeys {
                for key in item.fields.keys.sorted() where !isCamelCase(key) {
                    violations.append("item \(item.id): field key '\(key)' is not camelCase")
                }
            }
        }
        if first.report.items.map(\.id) != second.report.items.map(\.id) {
            violations.append("the ids differ between runs of the same data")
        }
        for (one, other) in zip(first.report.items, second.report.items) where Set(one.fields.keys) != Set(other.fields.keys) {
            violations.append("item \(one.id): field keys differ between runs: \(one.fields.keys.sorted()) vs \(other.fields.keys.sorted())")
        }
        return violations
    }

    static func isCamelCase(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return key.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
