#if canImport(Glibc)
import Glibc
#endif

/// Hands out connections (or per-connection state built around one) to concurrent callers: each
/// caller borrows a connection for the duration of a closure, so a connection is never used by two
/// threads at once. A new connection is opened when every idle one is busy; at most `maximumIdle`
/// are kept afterwards.
public final class ConnectionPool<Connection>: @unchecked Sendable {
    public typealias Factory = @Sendable () throws -> Connection

    private let make: Factory
    private let maximumIdle: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var idle: [Connection] = []
    private var openedCount = 0

    /// - Parameter make: opens one connection; called lazily, from whichever thread needs one.
    public init(maximumIdle: Int = 8, make: @escaping Factory) {
        self.make = make
        self.maximumIdle = max(1, maximumIdle)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        idle.removeAll()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Connections opened so far (for statistics and tests).
    public var connectionsOpened: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return openedCount
    }

    /// Runs `body` with a connection no other thread is using.
    public func withConnection<R>(_ body: (Connection) throws -> R) throws -> R {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Opens one connection now, so that the first query does not pay for it.
    public func warmUp() throws {
        checkIn(try checkOut())
    }

    private func checkOut() throws -> Connection {
        pthread_mutex_lock(mutex)
        if let connection = idle.popLast() {
            pthread_mutex_unlock(mutex)
            return connection
        }
        openedCount += 1
        pthread_mutex_unlock(mutex)
        return try make()
    }

    private func checkIn(_ connection: Connection) {
        pthread_mutex_lock(mutex)
        if idle.count < maximumIdle { idle.append(connection) }
        pthread_mutex_unlock(mutex)
    }
}
