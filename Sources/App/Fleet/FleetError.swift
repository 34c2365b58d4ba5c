import Domain

/// Why a worker cannot start.
public enum FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The store is the SQLite file: one machine, nothing to share.
    case needsSharedStore
    case storeUnavailable(String)
    /// The fleet runs another manifest.
    case manifestDiffers(onlyHere: [String], onlyInFleet: [String], changed: [String])

    public var description: String {
        switch self {
        case .needsSharedStore:
            return "a worker shares its sources with other workers through a PostgreSQL store: set AGGREGATE_STORE "
                + "(or the manifest's store.url) to postgres://…; on one machine, `aggregate watch` keeps the sources fresh"
        case .storeUnavailable(let message):
            return message
        case .manifestDiffers(let here, let fleet, let changed):
            var parts: [String] = []
            if !here.isEmpty { parts.append("only in this manifest: \(Self.list(here))") }
            if !fleet.isEmpty { parts.append("only in the fleet's: \(Self.list(fleet))") }
            if !changed.isEmpty { parts.append("other options or interval: \(Self.list(changed))") }
            return "this manifest is not the one the fleet runs (\(parts.joined(separator: "; "))). Give every worker "
                + "the same manifest, or start this one with --adopt-manifest to make it the fleet's"
        }
    }

    private static func list(_ ids: [String]) -> String {
        ids.count <= 5 ? ids.joined(separator: ", ") : ids.prefix(5).joined(separator: ", ") + " and \(ids.count - 5) more"
    }
}
