import Synchronization
import Routing

/// Search scratch memory shared by concurrent requests: each request borrows one and returns it,
/// so memory stays at (peak concurrency) × (one scratch) however many requests come.
final class ScratchPool: Sendable {
    private let free = Mutex<[SearchScratch]>([])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func withScratch<R>(_ body: (SearchScratch) throws -> R) rethrows -> R {
        let scratch = free.withLock { $0.popLast() } ?? SearchScratch(capacity: capacity)
        defer { free.withLock { $0.append(scratch) } }
        return try body(scratch)
    }
}

/// The same for CCH query memory.
final class CCHScratchPool: Sendable {
    private let free = Mutex<[CCHScratch]>([])
    let nodeCount: Int

    init(nodeCount: Int) { self.nodeCount = nodeCount }

    func withScratch<R>(_ body: (CCHScratch) throws -> R) rethrows -> R {
        let scratch = free.withLock { $0.popLast() } ?? CCHScratch(nodeCount: nodeCount)
        defer { free.withLock { $0.append(scratch) } }
        return try body(scratch)
    }
}

/// The same for time-dependent search memory.
final class TimeDependentScratchPool: Sendable {
    private let free = Mutex<[TimeDependentScratch]>([])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    func withScratch<R>(_ body: (TimeDependentScratch) throws -> R) rethrows -> R {
        let scratch = free.withLock { $0.popLast() } ?? TimeDependentScratch(capacity: capacity)
        defer { free.withLock { $0.append(scratch) } }
        return try body(scratch)
    }
}
