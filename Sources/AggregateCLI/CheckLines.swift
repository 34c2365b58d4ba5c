import App

/// The one-line-per-check output of `doctor` and `check-source`: ✓ passed, ✗ failed with its fix, – skipped
/// (with what would turn it on).
enum CheckLines {
    static func render(_ checks: [DoctorCheck]) -> String {
        checks.map { check in
            let mark = switch check.status {
            case .passed: "✓"
            case .failed: "✗"
            case .skipped: "–"
            }
            var line = "\(mark) \(check.subject): \(check.message)"
            if let fix = check.fix {
                switch check.status {
                case .passed: break
                case .failed: line += " — fix: \(fix)"
                case .skipped: line += " — \(fix)"
                }
            }
            return line + "\n"
        }.joined()
    }

    static func failures(_ checks: [DoctorCheck]) -> Int { checks.filter { $0.status == .failed }.count }
}
