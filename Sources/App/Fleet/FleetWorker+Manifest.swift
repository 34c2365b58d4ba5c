import Domain
import Foundation

/// One manifest for the fleet: what a worker registers, how it adopts a new one (SIGHUP) and how it follows
/// when another worker adopted one. Called on the worker's loop thread (every store call blocks).
extension FleetWorker {
    /// The sources the fleet schedules: every enabled source of `container`'s manifest, with its stored identity.
    static func manifest(of container: AppDIContainer) -> FleetManifest {
        // The options as every run of the container sees them (`${VAR}`s substituted once per container).
        FleetManifest(sources: container.manifest.sources.filter(\.enabled).map { source in
            FleetManifest.Source(
                id: source.id, fingerprint: container.identity(of: source, options: container.resolved(source).value).fingerprint,
                intervalSeconds: source.refreshSeconds)
        })
    }

    /// SIGHUP: make `container`'s manifest the fleet's (the other workers follow when their files match it).
    public func adopt(_ container: AppDIContainer) {
        state.withLock { $0.adopting = container }
        wake.signal()
    }

    /// Registers a manifest SIGHUP asked for, if any, adopting it.
    func adoptIfAsked(_ schedule: any FleetScheduleRepository) {
        guard let container = state.withLock({ state in defer { state.adopting = nil }; return state.adopting }) else { return }
        do throws(SourceError) {
            let registration = try schedule.register(Self.manifest(of: container), worker: id, adopt: true)
            guard case .registered(let added, let removed, let changed, let generation) = registration else { return }
            state.withLock { state in
                (state.container, state.generation, state.paused) = (container, generation, nil)
            }
            tell { $0.fleet(problem: "this worker's manifest is the fleet's now: \(added) sources added, \(removed) removed, "
                + "\(changed) changed") }
        } catch {
            tell { $0.fleet(problem: "the reloaded manifest could not be made the fleet's: \(error.message)") }
        }
    }

    /// The fleet's manifest is at `generation`: when another worker changed it, read this worker's manifest
    /// again and go on if it is the fleet's now; otherwise claim nothing (and say why, once) until it is.
    func follow(generation: Int, _ schedule: any FleetScheduleRepository) {
        let (known, current, wasPaused) = state.withLock { ($0.generation, $0.container, $0.paused) }
        guard generation != known else { return }
        let candidate = options.reload?() ?? current
        do throws(SourceError) {
            switch try schedule.register(Self.manifest(of: candidate), worker: id, adopt: false) {
            case .registered(_, _, _, let generation):
                state.withLock { state in
                    (state.container, state.generation, state.paused) = (candidate, generation, nil)
                }
                if wasPaused != nil { tell { $0.fleet(problem: "this worker's manifest is the fleet's again: claiming") } }
            case .differs(let here, let fleet, let changed):
                let why = FleetError.manifestDiffers(onlyHere: here, onlyInFleet: fleet, changed: changed).description
                state.withLock { state in
                    state.generation = generation
                    state.paused = why
                }
                tell { $0.fleet(problem: "another worker changed the fleet's manifest; this worker claims nothing until "
                    + "its own is the same (update the file and send SIGHUP): " + why) }
            }
        } catch {
            tell { $0.fleet(problem: error.message) }
        }
    }
}
