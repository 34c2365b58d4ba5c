import Foundation

extension JSONParser {
    /// Scratch space reused across parses (NDJSON lines): object members are gathered here first so each
    /// dictionary is allocated once at its final size instead of growing and rehashing.
    ///
    /// A stack of members kept by hand rather than an array: a finished object's members are moved into its
    /// dictionary, where an array's would be copied and then destroyed (a retain and a release of every key
    /// and value: a tenth of the JSON-array reader's time). One parser uses a workspace at a time, on one thread,
    /// so the run-time exclusivity checks of a class's stored properties are left out.
    package final class Workspace {
        package typealias Member = (key: String, value: JSONValue)
        @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Member>
        @exclusivity(unchecked) private var capacity: Int
        /// Members gathered and not yet taken: the open objects', innermost last.
        @exclusivity(unchecked) package private(set) var count = 0

        package init() {
            capacity = 32
            storage = .allocate(capacity: capacity)
        }

        deinit {
            storage.deinitialize(count: count)
            storage.deallocate()
        }

        package func push(_ member: Member) {
            if count == capacity {
                let larger = UnsafeMutablePointer<Member>.allocate(capacity: capacity * 2)
                larger.moveInitialize(from: storage, count: count)
                storage.deallocate()
                storage = larger
                capacity *= 2
            }
            (storage + count).initialize(to: member)
            count += 1
        }

        /// The members from `base` on, moved into one dictionary (a later duplicate key wins).
        package func takeObject(from base: Int) -> [String: JSONValue] {
            let members = storage
            var object = [String: JSONValue](minimumCapacity: count - base)
            for index in base..<count {
                let member = (members + index).move()
                object[member.key] = member.value
            }
            count = base
            return object
        }

        /// Drops the members from `base` on: their object failed to parse.
        package func drop(from base: Int) {
            guard count > base else { return }
            (storage + base).deinitialize(count: count - base)
            count = base
        }
    }
}
