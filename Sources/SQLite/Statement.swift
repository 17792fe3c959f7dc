import CSQLite

/// `SQLITE_TRANSIENT` is a cast macro, which Swift does not import: SQLite copies the bound bytes.
nonisolated(unsafe) let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A compiled statement. Parameters are numbered from 1 (SQLite's convention), result columns from 0.
/// Used by one thread at a time, like its connection; finalized when released.
public final class Statement {
    let handle: OpaquePointer
    public let sql: String

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else { throw SQLiteError.last(sqlite3_db_handle(handle), rc, context: sql) }
    }

    // MARK: Binding

    public func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    public func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text, or NULL when `value` is nil.
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        var copy = value
        let rc = copy.withUTF8 { utf8 -> Int32 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text(handle, index, $0, Int32(utf8.count), sqliteTransient)
            }
        }
        try check(rc)
    }

    public func bind(blob value: [UInt8], at index: Int32) throws(SQLiteError) {
        let rc = value.withUnsafeBytes { raw in
            sqlite3_bind_blob(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), sqliteTransient)
        }
        try check(rc)
    }

    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let v): try bind(blob: v, at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, 3, …
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (i, value) in values.enumerated() { try bind(value, at: Int32(i + 1)) }
    }

    /// The index of a named parameter (`:name`, `@name`, `$name`), or nil.
    public func parameterIndex(_ name: String) -> Int32? {
        let i = sqlite3_bind_parameter_index(handle, name)
        return i > 0 ? i : nil
    }

    public func clearBindings() { sqlite3_clear_bindings(handle) }

    // MARK: Running

    /// Advances to the next row: true when a row is available, false when the statement is done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.last(sqlite3_db_handle(handle), rc, context: sql)
        }
    }

    /// Runs a statement that returns no rows (INSERT, UPDATE, …) and resets it for reuse.
    public func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        if !values.isEmpty { try bind(values) }
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Calls `body` for each remaining row, then resets the statement.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    /// Rewinds the statement; bindings stay.
    public func reset() { sqlite3_reset(handle) }

    // MARK: Columns

    public var columnCount: Int32 { sqlite3_column_count(handle) }

    public func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    public func int32(_ column: Int32) -> Int32 { sqlite3_column_int(handle, column) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as text; "" when NULL.
    public func text(_ column: Int32) -> String { optionalText(column) ?? "" }

    /// The column as text; nil when NULL.
    public func optionalText(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as text; nil when NULL or empty.
    public func nonEmptyText(_ column: Int32) -> String? {
        guard let text = optionalText(column), !text.isEmpty else { return nil }
        return text
    }

    public func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func value(_ column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(text(column))
        case SQLITE_BLOB: .blob(blob(column))
        default: .null
        }
    }
}
