/// Reusable per-thread memory for one shortest-path search over `n` ids: tentative distances,
/// parents, and an indexed binary heap with decrease-key.
///
/// Reset is O(1): every slot carries the generation that wrote it, and a new search just bumps
/// the generation (RoutingKit's `TimestampFlags`), so a query that touches 300 ids never clears
/// 300,000.
public final class SearchScratch: @unchecked Sendable {
    public let capacity: Int
    @usableFromInline let distance: UnsafeMutablePointer<UInt32>
    @usableFromInline let parent: UnsafeMutablePointer<UInt32>
    @usableFromInline let stamp: UnsafeMutablePointer<UInt32>
    /// Heap position of an id (when stamped): ≥ 0 in the heap, -1 settled.
    @usableFromInline let position: UnsafeMutablePointer<Int32>
    @usableFromInline let heapKeys: UnsafeMutablePointer<UInt32>
    @usableFromInline let heapIDs: UnsafeMutablePointer<UInt32>
    @usableFromInline var heapCount = 0
    @usableFromInline var generation: UInt32 = 1
    /// Ids settled by the current search, in order (for path extraction and statistics).
    public private(set) var settledCount = 0

    public init(capacity: Int) {
        self.capacity = capacity
        let n = max(1, capacity)
        distance = .allocate(capacity: n)
        parent = .allocate(capacity: n)
        stamp = .allocate(capacity: n)
        stamp.initialize(repeating: 0, count: n)
        position = .allocate(capacity: n)
        heapKeys = .allocate(capacity: n)
        heapIDs = .allocate(capacity: n)
    }

    deinit {
        distance.deallocate(); parent.deallocate(); stamp.deallocate()
        position.deallocate(); heapKeys.deallocate(); heapIDs.deallocate()
    }

    public static let infinity = UInt32.max
    public static let noParent = UInt32.max

    /// Starts a new search: O(1).
    @inlinable
    public func reset() {
        generation &+= 1
        if generation == 0 {
            stamp.update(repeating: 0, count: max(1, capacity))
            generation = 1
        }
        heapCount = 0
    }

    @inlinable public func tentative(_ id: Int) -> UInt32 { stamp[id] == generation ? distance[id] : Self.infinity }
    @inlinable public func parentOf(_ id: Int) -> UInt32 { stamp[id] == generation ? parent[id] : Self.noParent }
    @inlinable public func isSettled(_ id: Int) -> Bool { stamp[id] == generation && position[id] == -1 }
    @inlinable public func isReached(_ id: Int) -> Bool { stamp[id] == generation }
    @inlinable public var isEmpty: Bool { heapCount == 0 }
    @inlinable public var minKey: UInt32 { heapCount > 0 ? heapKeys[0] : Self.infinity }

    /// Lowers `id`'s distance to `key` (inserting it if new); false when it was not an improvement
    /// or the id is already settled. Always inlined: it runs once per arc scanned, and called
    /// out of line every call pays the class's dynamic exclusivity checks.
    @inlinable @inline(__always) @discardableResult
    public func relax(_ id: Int, key: UInt32, parent from: UInt32) -> Bool {
        if stamp[id] != generation {
            stamp[id] = generation
            distance[id] = key
            parent[id] = from
            let slot = heapCount
            heapCount += 1
            heapKeys[slot] = key
            heapIDs[slot] = UInt32(id)
            position[id] = Int32(slot)
            siftUp(slot)
            return true
        }
        let pos = Int(position[id])
        guard pos >= 0, key < distance[id] else { return false }
        distance[id] = key
        parent[id] = from
        heapKeys[pos] = key
        siftUp(pos)
        return true
    }

    /// Removes and returns the id with the smallest key, marking it settled.
    @inlinable
    public func popMin() -> (id: Int, key: UInt32)? {
        guard heapCount > 0 else { return nil }
        let id = Int(heapIDs[0]), key = heapKeys[0]
        position[id] = -1
        heapCount -= 1
        if heapCount > 0 {
            heapKeys[0] = heapKeys[heapCount]
            heapIDs[0] = heapIDs[heapCount]
            position[Int(heapIDs[0])] = 0
            siftDown(0)
        }
        return (id, key)
    }

    @usableFromInline
    func siftUp(_ start: Int) {
        var i = start
        let key = heapKeys[i], id = heapIDs[i]
        while i > 0 {
            let p = (i - 1) >> 1
            if heapKeys[p] <= key { break }
            heapKeys[i] = heapKeys[p]
            heapIDs[i] = heapIDs[p]
            position[Int(heapIDs[i])] = Int32(i)
            i = p
        }
        heapKeys[i] = key
        heapIDs[i] = id
        position[Int(id)] = Int32(i)
    }

    @usableFromInline
    func siftDown(_ start: Int) {
        var i = start
        // Read once: each read of a class's stored var is an exclusivity check.
        let count = heapCount
        let key = heapKeys[i], id = heapIDs[i]
        while true {
            let l = 2 * i + 1
            if l >= count { break }
            let r = l + 1
            let c = (r < count && heapKeys[r] < heapKeys[l]) ? r : l
            if heapKeys[c] >= key { break }
            heapKeys[i] = heapKeys[c]
            heapIDs[i] = heapIDs[c]
            position[Int(heapIDs[i])] = Int32(i)
            i = c
        }
        heapKeys[i] = key
        heapIDs[i] = id
        position[Int(id)] = Int32(i)
    }
}
