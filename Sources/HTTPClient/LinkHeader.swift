import Foundation

/// The targets of an RFC 8288 `Link` header by relation, as GitHub and GitLab paginate:
/// `<https://api.github.com/repositories/3544490/issues?page=2>; rel="next", <…>; rel="last"`.
///
/// A header may be split over several fields and a `rel` may list several relations (`rel="next last"`);
/// relative targets resolve against the URL that answered.
public struct LinkHeader: Sendable, Hashable {
    /// The target of each relation (lowercased), the first one given when a relation repeats.
    public private(set) var targets: [String: URL] = [:]

    /// Parses the `Link` fields `fields`, resolving relative targets against `base`; links it cannot read are skipped.
    public init(_ fields: [String], relativeTo base: URL) {
        for field in fields {
            for link in Self.splitLinks(field) {
                guard let open = link.firstIndex(of: "<"), let close = link[open...].firstIndex(of: ">"),
                      let url = URL(string: String(link[link.index(after: open)..<close]), relativeTo: base)?
                        .absoluteURL else { continue }
                for parameter in link[link.index(after: close)...].split(separator: ";") {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    guard pair.count == 2, pair[0].lowercased() == "rel" else { continue }
                    let relations = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    for relation in relations.split(separator: " ") where targets[relation.lowercased()] == nil {
                        targets[relation.lowercased()] = url
                    }
                }
            }
        }
    }

    /// The `rel="next"` target: the next page, if there is one.
    public var next: URL? { targets["next"] }

    /// Splits on the commas between links, not those inside a `<…>` target.
    private static func splitLinks(_ field: String) -> [Substring] {
        var links: [Substring] = []
        var start = field.startIndex
        var inTarget = false
        for index in field.indices {
            switch field[index] {
            case "<": inTarget = true
            case ">": inTarget = false
            case "," where !inTarget:
                links.append(field[start..<index])
                start = field.index(after: index)
            default: break
            }
        }
        links.append(field[start...])
        return links
    }
}

extension URL {
    /// Same scheme, host and port: where a next-page link may be followed with the source's credential.
    public func hasSameOrigin(as other: URL) -> Bool {
        scheme?.lowercased() == other.scheme?.lowercased() && host?.lowercased() == other.host?.lowercased()
            && port == other.port
    }
}
