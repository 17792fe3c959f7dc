/// Per-thread memory for label-setting searches with A* keys: for each id its label, key and
/// parent packed into one 16-byte entry (a relaxation touches one cache line, not four
/// columns), and a binary heap of `key << 32 | id` words with lazy deletion (an improved key is
/// pushed again; the stale entry is skipped when it surfaces).
///
/// Reset is O(1): entries carry the generation that wrote them (RoutingKit's `TimestampFlags`).
public final class LabelHeap: @unchecked Sendable {
    @usableFromInline struct Entry {
        @usableFromInline var stamp: UInt32
        @usableFromInline var label: UInt32
        @usableFromInline var key: UInt32
        @usableFromInline var parent: UInt32
    }

    /// The heap's words, size and capacity, and the current generation. Kept behind a pointer:
    /// every access to a class's `var` costs a dynamic exclusivity check, several per relaxation.
    @usableFromInline struct State {
        @usableFromInline var heap: UnsafeMutablePointer<UInt64>
        @usableFromInline var heapCapacity: Int
        @usableFromInline var count: Int
        @usableFromInline var generation: UInt32
    }

    public let capacity: Int
    @usableFromInline let entries: UnsafeMutablePointer<Entry>
    @usableFromInline let state: UnsafeMutablePointer<State>
    /// Keys of settled ids are set to this.
    @usableFromInline static let settledKey = UInt32.max
    public static let noParent = UInt32.max

    public init(capacity: Int) {
        self.capacity = capacity
        let n = max(1, capacity)
        entries = .allocate(capacity: n)
        entries.initialize(repeating: Entry(stamp: 0, label: 0, key: 0, parent: 0), count: n)
        state = .allocate(capacity: 1)
        state.initialize(to: State(heap: .allocate(capacity: 1024), heapCapacity: 1024, count: 0, generation: 1))
    }

    deinit {
        entries.deallocate()
        state.pointee.heap.deallocate()
        state.deallocate()
    }

    /// Starts a new search: O(1).
    @inlinable
    public func reset() {
        state.pointee.generation &+= 1
        if state.pointee.generation == 0 {
            for i in 0..<max(1, capacity) { entries[i].stamp = 0 }
            state.pointee.generation = 1
        }
        state.pointee.count = 0
    }

    @inlinable public func isReached(_ id: Int) -> Bool { entries[id].stamp == state.pointee.generation }
    @inlinable public func isSettled(_ id: Int) -> Bool { entries[id].stamp == state.pointee.generation && entries[id].key == Self.settledKey }
    /// The label of a reached id (undefined otherwise).
    @inlinable public func label(_ id: Int) -> UInt32 { entries[id].label }
    @inlinable public func parentOf(_ id: Int) -> UInt32 { entries[id].stamp == state.pointee.generation ? entries[id].parent : Self.noParent }

    /// Gives `id` this label and key if it is new or the key is lower (never once settled);
    /// false otherwise.
    @inlinable @discardableResult
    public func push(_ id: Int, key: UInt32, label: UInt32, parent: UInt32) -> Bool {
        let e = entries + id
        let g = state.pointee.generation
        if e.pointee.stamp == g {
            guard key < e.pointee.key else { return false }
        } else {
            e.pointee.stamp = g
        }
        e.pointee.label = label
        e.pointee.key = key
        e.pointee.parent = parent
        insert(UInt64(key) << 32 | UInt64(UInt32(id)))
        return true
    }

    /// Removes and returns the id with the smallest key, marking it settled.
    @inlinable
    public func popMin() -> (id: Int, key: UInt32)? {
        while state.pointee.count > 0 {
            let heap = state.pointee.heap
            let top = heap[0]
            state.pointee.count -= 1
            let count = state.pointee.count
            if count > 0 { siftDown(heap[count]) }
            let id = Int(UInt32(truncatingIfNeeded: top)), key = UInt32(top >> 32)
            let e = entries + id
            guard e.pointee.key == key else { continue }  // stale, or settled already
            e.pointee.key = Self.settledKey
            return (id, key)
        }
        return nil
    }

    @inlinable public var isEmpty: Bool { state.pointee.count == 0 }

    @usableFromInline
    func insert(_ word: UInt64) {
        if state.pointee.count == state.pointee.heapCapacity { grow() }
        let heap = state.pointee.heap
        var i = state.pointee.count
        state.pointee.count += 1
        while i > 0 {
            let p = (i - 1) >> 1
            let pw = heap[p]
            if pw <= word { break }
            heap[i] = pw
            i = p
        }
        heap[i] = word
    }

    /// Puts `word` at the root and sifts it down (the root was just removed).
    @usableFromInline
    func siftDown(_ word: UInt64) {
        let heap = state.pointee.heap
        var i = 0
        let n = state.pointee.count
        while true {
            let l = 2 * i + 1
            if l >= n { break }
            var c = l
            if l + 1 < n && heap[l + 1] < heap[l] { c = l + 1 }
            let cw = heap[c]
            if cw >= word { break }
            heap[i] = cw
            i = c
        }
        heap[i] = word
    }

    @usableFromInline
    func grow() {
        let s = state.pointee
        let bigger = UnsafeMutablePointer<UInt64>.allocate(capacity: s.heapCapacity * 2)
        bigger.update(from: s.heap, count: s.count)
        s.heap.deallocate()
        state.pointee.heap = bigger
        state.pointee.heapCapacity = s.heapCapacity * 2
    }
}
