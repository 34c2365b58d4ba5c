import App
import ArgumentParser
import Foundation

/// Checks what a run needs, without fetching any data.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the manifest, keys and secrets, store, hosts and programs; fetch nothing.",
        discussion: """
            One line per check: ✓ passed, ✗ failed (with the fix), – skipped. Exits 1 when any check failed. \
            DNS and TCP checks of the HTTP sources' hosts (or of their proxy) are skipped with --offline.
            """
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @Flag(name: .long, help: "No DNS lookups or TCP connections.")
    var offline = false

    func run() throws {
        var doctor = Doctor(
            manifestURL: manifestOptions.manifestURL, displayPath: manifestOptions.displayPath,
            environment: ProcessInfo.processInfo.environment, offline: offline)
        doctor.registry = ActiveProviders.registry
        let checks = doctor.run()
        var output = CheckLines.render(checks)
        let failed = CheckLines.failures(checks)
        output += failed == 0 ? "all checks passed\n" : "\(failed) check\(failed == 1 ? "" : "s") failed\n"
        print(output, terminator: "")
        if failed > 0 { throw ExitCode(ExitStatus.sourcesFailed) }
    }
}
