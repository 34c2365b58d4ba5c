import Domain
import Foundation
import PostgresNIO
import StoreSupport

/// The fleet's latest reports on PostgreSQL (`fleet_report`): a batch stored in one statement, each row a new
/// version from one sequence; readers ask for the versions stored lately (by the server's clock, so machines
/// whose clocks disagree still agree), then read the rows that changed.
public struct PostgresFleetReports: Sendable {
    private let database: PostgresStoreDatabase

    public init(database: PostgresStoreDatabase) {
        self.database = database
    }
}

extension PostgresFleetReports: FleetReportRepository {
    public func publish(_ reports: [FleetReport]) throws(SourceError) {
        guard !reports.isEmpty else { return }
        var ids: [String] = []
        var bodies: [String] = []
        for report in reports {
            ids.append(report.report.id)
            bodies.append(try StoreCoding.encodeFleetReport(report))
        }
        try database.withSession { [ids, bodies] session in
            try await session.execute("""
                INSERT INTO fleet_report (source_id, version, body, stored_at)
                SELECT id, nextval('fleet_report_version'), body, EXTRACT(EPOCH FROM now())::double precision
                FROM unnest(\(ids)::text[], \(bodies)::text[]) AS r(id, body)
                ON CONFLICT (source_id) DO UPDATE SET version = excluded.version, body = excluded.body,
                    stored_at = excluded.stored_at
                """)
        }
    }

    public func versions(storedWithinSeconds seconds: Double?) throws(SourceError) -> [String: Int64] {
        try database.withSession { session in
            let rows: [PostgresRandomAccessRow]
            if let seconds {
                rows = try await session.rows("""
                    SELECT source_id, version FROM fleet_report
                    WHERE stored_at >= EXTRACT(EPOCH FROM now())::double precision - \(seconds)
                    """)
            } else {
                rows = try await session.rows("SELECT source_id, version FROM fleet_report")
            }
            var versions: [String: Int64] = [:]
            for row in rows { versions[try row[0].decode(String.self)] = try row[1].decode(Int64.self) }
            return versions
        }
    }

    public func reports(of ids: [String]) throws(SourceError) -> [FleetReport] {
        guard !ids.isEmpty else { return [] }
        let rows = try database.withSession { session in
            try await session.rows("SELECT version, body FROM fleet_report WHERE source_id = ANY(\(ids)::text[])").map {
                (try $0[0].decode(Int64.self), try $0[1].decode(String.self))
            }
        }
        var reports: [FleetReport] = []
        for (version, body) in rows { reports.append(try StoreCoding.decodeFleetReport(body, version: version)) }
        return reports
    }
}
