import Domain
import ProviderKit

/// A planned source built only when it loads: its provider's checks of the options and the clients it makes wait
/// for the engine to admit it. A check that fails then fails the source, as it would have at planning.
struct DeferredSource: ItemSource {
    let build: @Sendable () throws(ManifestError) -> any ItemSource

    func load(_ context: LoadContext, into receiver: ItemReceiver) {
        do throws(ManifestError) {
            try build().load(context, into: receiver)
        } catch {
            receiver.fail(SourceError(.configuration, error.description))
        }
    }
}
