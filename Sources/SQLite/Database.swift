import CSQLite

/// One SQLite connection, opened in multi-thread mode (`SQLITE_OPEN_NOMUTEX`): it may move between
/// threads but must be used by one thread at a time. For concurrent readers keep one per thread or
/// borrow from a `ConnectionPool`. The connection closes when the object is released.
public final class Database {
    public enum OpenMode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, creating the file when it does not exist.
        case readWriteCreate
    }

    let handle: OpaquePointer
    public let path: String
    private var statementCache: [String: Statement] = [:]

    /// Opens `path` (`":memory:"` for a private in-memory database).
    public init(path: String, mode: OpenMode = .readOnly) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let error = SQLiteError.last(db, rc, context: path)
            sqlite3_close_v2(db)
            throw error
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    /// A private in-memory database.
    public static func inMemory() throws(SQLiteError) -> Database {
        try Database(path: ":memory:", mode: .readWriteCreate)
    }

    deinit {
        statementCache.removeAll()
        // close_v2 defers the close until every statement still alive elsewhere is finalized.
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements that return no rows of interest.
    public func exec(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, context: sql)
        }
    }

    /// Compiles one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw SQLiteError.last(handle, rc, context: sql) }
        return Statement(handle: statement, sql: sql)
    }

    /// A statement compiled once per connection and reused: it comes back reset, with its bindings cleared.
    public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statementCache[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    public func transaction<R>(_ body: () throws -> R) throws -> R {
        try exec("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            try? exec("ROLLBACK")
            throw error
        }
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Makes a locked database wait up to `milliseconds` before failing with `SQLITE_BUSY`.
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// The first column of the first row of `sql` as an integer, or nil when there is no row or it is NULL.
    public func scalarInt64(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(0) else { return nil }
        return statement.int64(0)
    }

    /// The first column of the first row of `sql` as text, or nil when there is no row or it is NULL.
    public func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try cachedStatement(sql)
        try statement.bind(values)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.optionalText(0)
    }

    /// The compile-time options of the linked SQLite (`ENABLE_FTS5`, `ENABLE_RTREE`, …).
    public func compileOptions() throws(SQLiteError) -> [String] {
        let statement = try prepare("PRAGMA compile_options")
        var options: [String] = []
        while try statement.step() { options.append(statement.text(0)) }
        return options
    }

    /// The version of the linked SQLite library ("3.40.1").
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
