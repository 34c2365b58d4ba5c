import Domain

extension Manifest {
    /// The longest and largest `retention` a manifest may ask for.
    static let retentionDaysRange = 1...36_500
    static let retentionItemsRange = 1...10_000_000

    /// How long the archive keeps `sourceID`'s items: its own `retention`, else `defaults.retention`, else
    /// `ArchiveRetention.default`. A source no longer in the manifest follows `defaults.retention`.
    public func retention(of sourceID: String) -> ArchiveRetention {
        source(id: sourceID)?.retention ?? defaults.retention
    }
}

extension ManifestLoader {
    /// `retention` at `path`: `{"days": 1…36,500, "maxItemsPerSource": 1…10,000,000}`, each optional (what is left
    /// out comes from `base`).
    static func retention(
        _ value: JSONValue?, _ path: String, base: ArchiveRetention, _ problem: (String, String) -> Void
    ) -> ArchiveRetention? {
        guard let value else { return nil }
        guard case .object(let object) = value else {
            problem(path, "expected an object such as {\"days\": 90, \"maxItemsPerSource\": 10000}, found \(value.typeName)")
            return nil
        }
        checkKeys(object, allowed: ["days", "maxItemsPerSource"], path: path, report: problem)
        var retention = base
        func whole(_ key: String, _ range: ClosedRange<Int>) -> Int? {
            guard let member = object[key] else { return nil }
            guard case .int(let number) = member, range.contains(number) else {
                problem("\(path).\(key)", "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(member.compactJSON)")
                return nil
            }
            return number
        }
        retention.days = whole("days", Manifest.retentionDaysRange) ?? retention.days
        retention.maxItemsPerSource = whole("maxItemsPerSource", Manifest.retentionItemsRange) ?? retention.maxItemsPerSource
        return retention
    }
}

extension ManifestSchema {
    /// `retention`, in `defaults` and in a source.
    static var retentionSchema: JSONValue {
        .object([
            "type": "object", "additionalProperties": false,
            "description": .string("How long the item archive keeps a source's items (default \(ArchiveRetention.default.days) days, "
                + "at most \(ArchiveRetention.default.maxItemsPerSource) items per source; starred items stay)."),
            "properties": .object([
                "days": .object([
                    "type": "integer", "minimum": .int(Manifest.retentionDaysRange.lowerBound),
                    "maximum": .int(Manifest.retentionDaysRange.upperBound),
                    "description": "Items first seen longer ago than this go.",
                ]),
                "maxItemsPerSource": .object([
                    "type": "integer", "minimum": .int(Manifest.retentionItemsRange.lowerBound),
                    "maximum": .int(Manifest.retentionItemsRange.upperBound),
                    "description": "Past this many, a source's oldest items go.",
                ]),
            ]),
        ])
    }
}
