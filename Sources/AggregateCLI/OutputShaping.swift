import App
import ArgumentParser
import Domain
import Foundation
import Presentation
import Synchronization

/// `--since`, `--dedupe` and `--jq`, shared by `run` and `watch`; the run's output applies the first two
/// (`ItemShaping`), the renderers the last.
struct ShapingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Only items dated after this: a duration back from now (30m, 2h, 1d, 1w) or a time (2026-11-20, "
                + "2026-11-20T08:00:00Z). Undated items are left out.",
            valueName: "duration|time"))
    var since: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Show the same story once across sources: by canonical url (no utm_* or other tracking "
                + "parameters, fragment or trailing slash), normalized title, or id. The copy with more fields "
                + "is kept; fields.alsoIn lists the other sources.",
            valueName: "url|title|id"))
    var dedupe: DedupeKey?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A jq expression applied to the JSON output, as jq -r would (libjq): to the whole report with "
                + "-f json (the default with --jq), to each item with -f ndjson.",
            valueName: "expression"))
    var jq: String?

    func validate() throws {
        if let since, SinceText.date(since, now: Date()) == nil {
            throw ValidationError(
                "--since '\(since)' is neither a duration (30m, 2h, 1d, 1w) nor a date (2026-11-20, 2026-11-20T08:00:00Z).")
        }
    }

    /// `--since`'s time, measured from `now`.
    func sinceDate(now: Date) -> Date? { since.flatMap { SinceText.date($0, now: now) } }

    /// The compiled `--jq`, or nil without one.
    /// - Throws: a syntax error as jq prints it (exit 64).
    func compiledJQ(compact: Bool) throws -> JQFilter? {
        guard let jq else { return nil }
        do throws(JQFilter.CompileError) {
            return try JQFilter(jq, compact: compact)
        } catch {
            throw ValidationError("--jq: " + error.messages.trimmingCharacters(in: .newlines))
        }
    }
}

/// What a `--jq` filter reported while the output was written: each failure on stderr as jq prints it, and
/// the exit status jq would end with (5, or `halt_error`'s code), the first one kept.
final class JQFailures: Sendable {
    private let status = Mutex<Int32?>(nil)

    func report(_ failure: JQFilter.Failure, at position: String) {
        Terminal.writeError(failure.line(at: position))
        status.withLock { $0 = $0 ?? failure.exitStatus }
    }

    var exitStatus: Int32? { status.withLock { $0 } }
}

/// `--template TEXT|@FILE`.
struct TemplateOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Print the report through a Mustache template instead of a format: the text, or @FILE. Keys as in "
                + "-f json; helpers iso(date), day(date), relative(date), truncateN(x), padN(x), padLeftN(x). "
                + "{{x}} escapes HTML, {{{x}}} does not.",
            valueName: "text|@file"))
    var template: String?

    /// The parsed template, or nil without one.
    /// - Throws: a template that cannot run (exit 64), with its line.
    func load() throws -> ReportTemplate? {
        guard var text = template else { return nil }
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ValidationError("--template: cannot read \(path)")
            }
            text = String(decoding: data, as: UTF8.self)
        }
        do throws(ReportTemplate.Problem) {
            return try ReportTemplate(text)
        } catch {
            throw ValidationError("--template: \(error)")
        }
    }
}

extension DedupeKey: EnumArgument {}
