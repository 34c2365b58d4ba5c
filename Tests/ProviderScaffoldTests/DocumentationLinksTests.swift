import Foundation
import Testing

/// The README is a page and the manual lives in docs/: every relative link between them, and every `#section` it
/// names, must lead somewhere, so moving a section between pages cannot leave a reader at a dead end.
@Suite("documentation links")
struct DocumentationLinksTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("every relative link of README.md and docs/ names a file that exists, and a section that exists there")
    func relativeLinksResolve() throws {
        let pages = try Self.pages()
        try #require(pages.count >= 10, "pages found: \(pages.map(\.path))")
        var checked = 0
        for page in pages {
            for link in try Markdown(contentsOf: page).links where !link.isExternal {
                checked += 1
                let (path, fragment) = link.split
                let target = path.isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(path)
                let name = "\(page.path.dropFirst(Self.root.path.count + 1)): (\(link.target))"
                guard FileManager.default.fileExists(atPath: target.path) else {
                    Issue.record("\(name): no file \(target.standardizedFileURL.path)")
                    continue
                }
                if let fragment, target.pathExtension == "md" {
                    let anchors = try Markdown(contentsOf: target).anchors
                    #expect(anchors.contains(fragment), "\(name): no section #\(fragment) in \(target.lastPathComponent)")
                }
            }
        }
        // The README alone links to every page of the manual.
        #expect(checked >= 40, "only \(checked) relative links found")
    }

    @Test("anchors are GitHub's: lowercase, punctuation dropped, spaces as hyphens")
    func anchors() {
        let page = Markdown(text: """
            # The manual
            ## `files` — local JSON, CSV and NDJSON
            ## HTTP transport (libcurl's multi interface)
            ```sh
            # not a heading
            ```
            ## The manual
            """)
        #expect(page.anchors == [
            "the-manual", "files--local-json-csv-and-ndjson", "http-transport-libcurls-multi-interface", "the-manual-1",
        ])
    }

    /// README.md and every Markdown page under docs/.
    static func pages() throws -> [URL] {
        let docs = root.appendingPathComponent("docs")
        let found = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "md" } ?? []
        return [root.appendingPathComponent("README.md")] + found.sorted { $0.path < $1.path }
    }
}

/// What the link check reads of a Markdown page: its inline links and its headings' anchors, outside code blocks.
struct Markdown {
    struct Link {
        let target: String
        var isExternal: Bool { target.contains("://") || target.hasPrefix("mailto:") }
        var split: (path: String, fragment: String?) {
            guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
            return (String(target[..<hash]), String(target[target.index(after: hash)...]))
        }
    }

    private let lines: [String]

    init(text: String) {
        var inCode = false
        lines = text.components(separatedBy: "\n").filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inCode.toggle()
                return false
            }
            return !inCode
        }
    }

    init(contentsOf url: URL) throws {
        self.init(text: try String(contentsOf: url, encoding: .utf8))
    }

    var links: [Link] {
        lines.flatMap { line -> [Link] in
            // Code spans may hold `](`: leave them out before looking for links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined(separator: " ")
            return prose.matches(of: #/\]\(([^)\s]+)\)/#).map { Link(target: String($0.output.1)) }
        }
    }

    /// GitHub's anchors: the heading's text lowercased, everything but letters, digits, spaces, `-` and `_` dropped,
    /// spaces as `-`; a repeated heading gets `-1`, `-2`, ….
    var anchors: [String] {
        var seen: [String: Int] = [:]
        return lines.compactMap { line -> String? in
            let level = line.prefix { $0 == "#" }.count
            guard (1...6).contains(level), line.dropFirst(level).first == " " else { return nil }
            let heading = line.dropFirst(level).drop { $0 == " " }
            let slug = String(heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
                if scalar == " " { return "-" }
                if CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_" { return Character(scalar) }
                return nil
            })
            defer { seen[slug, default: 0] += 1 }
            return seen[slug].map { "\(slug)-\($0)" } ?? slug
        }
    }
}
