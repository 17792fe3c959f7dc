import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A serial queue on a thread of its own that runs at a lower scheduling priority (`niceness`
/// above the creating thread's, on Linux, where it is a per-thread setting): work that follows a live update but must not take
/// the cores from the next update or from queries — learning from live speeds.
final class BackgroundQueue: Sendable {
    private final class State: @unchecked Sendable {
        let condition = NSCondition()
        var pending: [@Sendable () -> Void] = []
        var running = false
        var stopped = false
    }

    private let state = State()

    init(name: String, niceness: Int32 = 10) {
        let state = self.state
        let thread = Thread {
            #if canImport(Glibc)
            // who = 0 is the calling thread on Linux, which started with its creator's niceness.
            let which = __priority_which_t(PRIO_PROCESS.rawValue)
            _ = setpriority(which, 0, min(19, getpriority(which, 0) + niceness))
            #endif
            // The job is released before the lock is taken again: dropping the last reference to
            // this queue's owner there must not find the lock held.
            func runNext() -> Bool {
                state.condition.lock()
                while state.pending.isEmpty && !state.stopped { state.condition.wait() }
                guard !state.pending.isEmpty else { state.condition.unlock(); return false }
                let job = state.pending.removeFirst()
                state.running = true
                state.condition.unlock()
                job()
                return true
            }
            while runNext() {
                state.condition.lock()
                state.running = false
                state.condition.broadcast()
                state.condition.unlock()
            }
        }
        thread.name = name
        thread.start()
    }

    /// The thread finishes the work queued so far, then ends.
    deinit {
        state.condition.lock()
        state.stopped = true
        state.condition.broadcast()
        state.condition.unlock()
    }

    func async(_ job: @escaping @Sendable () -> Void) {
        state.condition.lock()
        state.pending.append(job)
        state.condition.broadcast()
        state.condition.unlock()
    }

    /// Waits until everything queued so far has run.
    func wait() {
        state.condition.lock()
        while !state.pending.isEmpty || state.running { state.condition.wait() }
        state.condition.unlock()
    }
}
