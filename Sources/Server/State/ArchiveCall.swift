import Dispatch
import Domain

/// A call on the item archive from a request: run off the event loop (store calls block), with the archive the
/// server opened. Either the call's value, or why not, as a message for a 503 (never a 500): no archive to open,
/// or a store that failed.
enum ArchiveCall {
    struct Unavailable: Error {
        let message: String
    }

    /// - Parameters:
    ///   - open: the archive, or nil when the store cannot give one.
    ///   - missing: the message when `open` gives none.
    static func offLoop<T: Sendable>(
        _ open: @escaping @Sendable () -> (any ItemArchiveRepository)?, missing: String,
        _ work: @escaping @Sendable (any ItemArchiveRepository) throws(SourceError) -> T
    ) async -> Result<T, Unavailable> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: call(open, missing, work)) }
        }
    }

    private static func call<T>(
        _ open: () -> (any ItemArchiveRepository)?, _ missing: String,
        _ work: (any ItemArchiveRepository) throws(SourceError) -> T
    ) -> Result<T, Unavailable> {
        guard let archive = open() else { return .failure(Unavailable(message: missing)) }
        do throws(SourceError) {
            return .success(try work(archive))
        } catch {
            return .failure(Unavailable(message: "the item archive cannot be read: \(error.message)"))
        }
    }
}
