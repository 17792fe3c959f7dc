import Foundation
import Synchronization
@testable import HTTPServer

/// Starts a server on 127.0.0.1 with an ephemeral port, runs `body`, and always stops it.
func withServer<T>(_ configure: (inout MicroHTTPDServer.Configuration) -> Void = { _ in },
                   handler: @escaping HTTPHandler,
                   _ body: (MicroHTTPDServer) throws -> T) throws -> T {
    var configuration = MicroHTTPDServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.workerThreads = 2
    configuration.connectionTimeoutSeconds = 10
    configuration.errorLog = nil
    configure(&configuration)
    let server = MicroHTTPDServer(configuration: configuration, handler: handler)
    try server.start()
    defer { server.stop(gracePeriod: .seconds(2)) }
    return try body(server)
}

/// Collects access-log entries from server threads.
final class LogCollector: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])
    var sink: @Sendable (AccessLogEntry) -> Void { { entry in self.entries.withLock { $0.append(entry) } } }
    var all: [AccessLogEntry] { entries.withLock { $0 } }
}

/// Polls `condition` every 10 ms until it holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Runs `body` on a new thread; `join` waits for it at most `timeout`.
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [done] in body(); done.signal() }
        thread.start()
    }
    /// True when the thread finished in time.
    func join(timeout: Double = 10) -> Bool { done.wait(timeout: .now() + timeout) == .success }
}

/// A shareable counter (Atomic itself is non-copyable and cannot be captured by escaping closures).
final class Counter: Sendable {
    private let atomic = Atomic<Int>(0)
    func add(_ n: Int = 1) { atomic.add(n, ordering: .relaxed) }
    var value: Int { atomic.load(ordering: .relaxed) }
}

/// A shareable locked value.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }
}
