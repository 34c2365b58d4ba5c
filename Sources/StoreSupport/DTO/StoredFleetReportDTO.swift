import Domain
import Foundation

/// A `FleetReport` as the shared store keeps it (JSON in `fleet_report.body`): the source's report with its new
/// items only (the others are in the item archive: `itemIDs` lists every item's id, in order), which were new,
/// and when it finished and is due again. A report stored before `itemIDs`, or without the history's answer of
/// which items were new, holds every item.
struct StoredFleetReportDTO: Codable {
    struct Failure: Codable {
        var kind: SourceError.Kind
        var message: String
        var retryAt: Double?
    }

    var id: String
    var provider: String
    var timeoutSeconds: Double
    var concurrency: Int
    var status: SourceStatus
    var items: [StoredItemDTO]
    var itemIDs: [String]?
    var streamedItemCount: Int
    var filteredItemCount: Int?
    var warnings: [String]
    var error: Failure?
    var message: String?
    var duration: Double
    var cache: CacheStatus
    var refreshNotBefore: Double?
    var newItemIDs: [String]?
    var finishedAt: Double
    var next: Double
}

extension StoredFleetReportDTO {
    init(_ fleet: FleetReport) {
        let report = fleet.report
        // Without the history's answer a server tells new items by its own memory of them: then all are kept.
        let new = fleet.newItemIDs.map { ids in report.items.filter { ids.contains($0.id) } } ?? report.items
        self.init(
            id: report.descriptor.id, provider: report.descriptor.provider,
            timeoutSeconds: report.descriptor.timeoutSeconds, concurrency: report.descriptor.concurrency,
            status: report.status, items: new.map(StoredItemDTO.init), itemIDs: fleet.itemIDs,
            streamedItemCount: report.itemCount - new.count, filteredItemCount: report.filteredItemCount,
            warnings: report.warnings,
            error: report.error.map { Failure(kind: $0.kind, message: $0.message, retryAt: $0.retryAt?.timeIntervalSince1970) },
            message: report.message, duration: report.duration, cache: report.cache,
            refreshNotBefore: report.refreshNotBefore?.timeIntervalSince1970, newItemIDs: fleet.newItemIDs.map { $0.sorted() },
            finishedAt: fleet.finishedAt.timeIntervalSince1970, next: fleet.next.timeIntervalSince1970)
    }

    func toDomain(version: Int64) -> FleetReport {
        var report = SourceReport(
            descriptor: SourceDescriptor(id: id, provider: provider, timeoutSeconds: timeoutSeconds, concurrency: concurrency),
            status: status, items: items.map { $0.toDomain() }, warnings: warnings,
            error: error.map { SourceError($0.kind, $0.message, retryAt: $0.retryAt.map(Date.init(timeIntervalSince1970:))) },
            message: message, duration: duration, cache: cache)
        report.streamedItemCount = streamedItemCount
        report.filteredItemCount = filteredItemCount
        report.refreshNotBefore = refreshNotBefore.map(Date.init(timeIntervalSince1970:))
        return FleetReport(
            report: report, itemIDs: itemIDs ?? items.map(\.id), newItemIDs: newItemIDs.map(Set.init), finishedAt: Date(timeIntervalSince1970: finishedAt),
            next: Date(timeIntervalSince1970: next), version: version)
    }
}

extension StoreCoding {
    /// A fleet report as the store's JSON text.
    public static func encodeFleetReport(_ report: FleetReport) throws(SourceError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(StoredFleetReportDTO(report)), as: UTF8.self)
        } catch {
            throw SourceError(.io, "the report of \(report.report.id) could not be encoded for the store")
        }
    }

    /// A report written by `encodeFleetReport(_:)`, at the store's `version` of it; unreadable text is an `io` error.
    public static func decodeFleetReport(_ text: String, version: Int64) throws(SourceError) -> FleetReport {
        do {
            return try JSONDecoder().decode(StoredFleetReportDTO.self, from: Data(text.utf8)).toDomain(version: version)
        } catch {
            throw SourceError(.io, "a stored fleet report is unreadable")
        }
    }
}
