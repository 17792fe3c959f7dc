import Foundation
import Testing
import Synchronization
@testable import RoutePlanning
#if canImport(Glibc)
import Glibc
#endif

/// Learning runs on a serial queue of its own at a lower priority: jobs run in order, `wait`
/// returns only when all of them have, and the thread yields the cores to the caller's.
@Suite struct BackgroundQueueTests {
    @Test func runsJobsInOrderAndWaitsForThem() {
        let queue = BackgroundQueue(name: "test")
        let seen = Mutex<[Int]>([])
        for i in 0..<50 {
            queue.async {
                if i % 10 == 0 { usleep(2_000) }
                seen.withLock { $0.append(i) }
            }
        }
        queue.wait()
        #expect(seen.withLock { $0 } == Array(0..<50))
    }

    #if canImport(Glibc)
    @Test func runsAtALowerPriority() {
        let queue = BackgroundQueue(name: "test", niceness: 7)
        let niceness = Mutex<Int32>(-100)
        queue.async { niceness.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } }
        queue.wait()
        let caller = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(niceness.withLock { $0 } == min(19, caller + 7))
    }
    #endif
}
