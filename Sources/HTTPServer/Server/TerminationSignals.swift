#if canImport(Glibc)
import Glibc
#endif

/// Deterministic SIGINT/SIGTERM handling for a server process (the `sigwait` pattern).
///
/// ```swift
/// let signals = TerminationSignals.block()        // first thing in main, before any thread starts
/// try server.start()
/// let signal = signals.wait()                      // blocks until SIGINT or SIGTERM
/// server.stop()
/// ```
/// `block()` masks the signals in the calling thread; threads created afterwards (libmicrohttpd's
/// workers, the stream watcher) inherit the mask, so the signal stays pending until `wait()`
/// takes it. Threads created *before* `block()` (by other libraries) could still receive it and
/// die with the default action, so call it early.
public struct TerminationSignals: Sendable {
    public let signals: [Int32]

    private init(signals: [Int32]) { self.signals = signals }

    /// SIGINT (2) and SIGTERM (15), the signals a server should stop on.
    public static var interruptAndTerminate: [Int32] { [SIGINT, SIGTERM] }

    /// Blocks SIGINT and SIGTERM for the calling thread and the threads it creates from now on.
    public static func block() -> TerminationSignals { block(interruptAndTerminate) }

    /// Blocks `signals` for the calling thread and the threads it creates from now on.
    public static func block(_ signals: [Int32]) -> TerminationSignals {
        var set = makeSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        return TerminationSignals(signals: signals)
    }

    /// Waits (in the calling thread) until one of the signals is pending and returns it.
    public func wait() -> Int32 {
        var set = Self.makeSet(signals)
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }

    /// Unblocks the signals in the calling thread (threads already created keep their masks).
    public func unblock() {
        var set = Self.makeSet(signals)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    private static func makeSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }
}
