#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// How many threads heavy work may use: every core unless limited (`wayfinder import --threads N`).
/// Parallel loops of the import (PBF decoding, dissection, customization) ask here.
public enum Parallelism {
    private static let limit = Atomic<Int>(0)

    /// The cores online.
    public static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Threads parallel work may use now (at least 1).
    public static var threads: Int {
        let l = limit.load(ordering: .relaxed)
        return l > 0 ? l : cores
    }

    /// Limits parallel work to `n` threads (0 removes the limit).
    public static func limit(to n: Int) { limit.store(max(0, n), ordering: .relaxed) }

    /// Runs `body(i)` for every `i` in `0..<iterations`, on at most `threads` threads at once.
    public static func perform(iterations: Int, _ body: @Sendable (Int) -> Void) {
        let t = min(threads, iterations)
        if t <= 1 {
            for i in 0..<iterations { body(i) }
        } else if t == iterations {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
        } else {
            DispatchQueue.concurrentPerform(iterations: t) { worker in
                for i in stride(from: worker, to: iterations, by: t) { body(i) }
            }
        }
    }
}
