import App
import ArgumentParser

/// The manifest's sources and whether each would run now.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the manifest's sources: id, provider, and whether each would run (and why not)."
    )

    @OptionGroup var manifestOptions: ManifestOptions

    func run() throws {
        let container = try manifestOptions.loadContainer()
        let rows = container.listing().map { listing -> [String] in
            let state = switch listing.state {
            case .ready: "enabled"
            case .disabled where !listing.needs.isEmpty:
                "disabled; needs \(listing.needs.map { "$\($0)" }.joined(separator: ", "))"
            case .disabled: "disabled (runs only when named with --sources)"
            case .missingVariables(let names):
                "skipped: needs \(names.map { "$\($0)" }.joined(separator: ", "))"
            }
            return [listing.id, listing.provider, state]
        }
        print(TextColumns.format([["SOURCE", "PROVIDER", "STATE"]] + rows), terminator: "")
    }
}

/// Left-aligned columns for the small listings of `list` and `providers`.
enum TextColumns {
    static func format(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Greedy word wrap for help text.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
