#if canImport(Glibc)
import Glibc
#endif

/// One thread per server that, every `streamWatchInterval`, checks open streams for vanished
/// clients and sends idle heartbeats.
///
/// A plain pthread created by `start()` (not a Dispatch worker), so it inherits the signal mask
/// of the thread that started the server; see `TerminationSignals`.
final class StreamWatcher: @unchecked Sendable {
    // Guarded by `mutex`; the pthread objects live in manually allocated memory so their
    // addresses never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var stopped = false
    private var thread = pthread_t()
    private let intervalNanoseconds: Int
    private weak var core: ServerCore?

    init(core: ServerCore) {
        let interval = core.configuration.streamWatchInterval
        intervalNanoseconds = max(1_000_000, Int(interval.components.seconds) * 1_000_000_000
            + Int(interval.components.attoseconds / 1_000_000_000))
        self.core = core
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, nil, { context in
            let watcher = Unmanaged<StreamWatcher>.fromOpaque(context!).takeRetainedValue()
            watcher.run()
            return nil
        }, context)
        if created != 0 {
            Unmanaged<StreamWatcher>.fromOpaque(context).release()
            stopped = true
        }
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while !stopped {
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let total = Int(deadline.tv_nsec) + intervalNanoseconds
            deadline.tv_sec += total / 1_000_000_000
            deadline.tv_nsec = total % 1_000_000_000
            while !stopped && pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT {}
            if stopped { break }
            pthread_mutex_unlock(mutex)
            core?.watchStreams()
            pthread_mutex_lock(mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// Stops the thread and waits for it to exit.
    func cancel() {
        pthread_mutex_lock(mutex)
        let wasRunning = !stopped
        stopped = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
        if wasRunning { pthread_join(thread, nil) }
    }
}
