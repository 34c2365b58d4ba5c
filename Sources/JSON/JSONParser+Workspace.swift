import Foundation

extension JSONParser {
    /// Scratch space reused across parses (NDJSON lines): object members are gathered here first so each
    /// object's members are allocated once, at their final size.
    ///
    /// A stack of members kept by hand rather than an array: a finished object's members are moved into its
    /// object, where an array's would be copied and then destroyed (a retain and a release of every key
    /// and value: a tenth of the JSON-array reader's time). One parser uses a workspace at a time, on one thread,
    /// so the run-time exclusivity checks of a class's stored properties are left out.
    package final class Workspace {
        package typealias Member = (key: String, value: JSONValue)
        @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Member>
        @exclusivity(unchecked) private var capacity: Int
        /// Members gathered and not yet taken: the open objects', innermost last.
        @exclusivity(unchecked) package private(set) var count = 0
        /// The key orders of recent objects. NDJSON lines and a JSON array's elements mostly share one shape, so
        /// an object whose keys come in the order of one seen before takes that one's sort: its keys are
        /// compared for equality (immediate for short keys), never ordered. Sorting each row was a tenth of the
        /// NDJSON reader.
        @exclusivity(unchecked) private var shapes: [Shape] = []
        @exclusivity(unchecked) private var nextShape = 0

        private struct Shape {
            /// At most this many shapes are kept (the row and its nested objects), replaced in turn.
            static let kept = 8
            /// Wider objects are sorted each time.
            static let widest = 64
            /// The keys in the order the text gave them.
            var keys: [String]
            /// `order[i]` is where the `i`-th key in key order was in `keys`.
            var order: [Int]
        }

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

        /// The members from `base` on, moved into one object in key order (a later duplicate key wins).
        package func takeObject(from base: Int) -> JSONObject {
            let width = count - base
            defer { count = base }
            guard width > 1 else { return JSONObject(sortedUnique: width == 0 ? [] : [(storage + base).move()]) }
            let members = storage + base
            guard let order = order(of: members, width: width) else {
                return JSONObject(members: [Member](moving: members, count: width))
            }
            return JSONObject(sortedUnique: [Member](unsafeUninitializedCapacity: width) { buffer, initialized in
                for (position, source) in order.enumerated() {
                    (buffer.baseAddress! + position).initialize(to: (members + source).move())
                }
                initialized = width
            })
        }

        /// The order that sorts `members` by key, from the shapes seen before or sorted now and kept; nil when a
        /// key is there twice or the object is too wide to keep (the general sort handles those).
        private func order(of members: UnsafeMutablePointer<Member>, width: Int) -> [Int]? {
            for shape in shapes where shape.keys.count == width {
                var same = true
                for index in 0..<width where shape.keys[index] != members[index].key {
                    same = false
                    break
                }
                if same { return shape.order }
            }
            guard width <= Shape.widest else { return nil }
            let keys = (0..<width).map { members[$0].key }
            let order = (0..<width).sorted { keys[$0] < keys[$1] }
            for index in 1..<width where !(keys[order[index - 1]] < keys[order[index]]) { return nil }
            if shapes.count < Shape.kept { shapes.append(Shape(keys: keys, order: order)) } else {
                shapes[nextShape] = Shape(keys: keys, order: order)
                nextShape = (nextShape + 1) % Shape.kept
            }
            return order
        }

        /// Drops the members from `base` on: their object failed to parse.
        package func drop(from base: Int) {
            guard count > base else { return }
            (storage + base).deinitialize(count: count - base)
            count = base
        }
    }
}

extension Array {
    /// The `count` elements at `source`, moved out (their memory is left uninitialized).
    init(moving source: UnsafeMutablePointer<Element>, count: Int) {
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: count)
            initialized = count
        }
    }
}
