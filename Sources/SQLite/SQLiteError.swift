import CSQLite

/// A failure reported by SQLite: the result code (extended when available) and SQLite's own message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_CANTOPEN`, …).
    public var code: Int32
    public var message: String
    /// The statement or path involved, when there was one.
    public var context: String?

    public init(code: Int32, message: String, context: String? = nil) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (`code & 0xff`), e.g. `SQLITE_BUSY`.
    public var primaryCode: Int32 { code & 0xff }

    public var description: String {
        let name = String(cString: sqlite3_errstr(code))
        if let context { return "SQLite error \(code) (\(name)): \(message) [\(context)]" }
        return "SQLite error \(code) (\(name)): \(message)"
    }

    /// The error currently recorded on `db` (message and extended code).
    static func last(_ db: OpaquePointer?, _ fallback: Int32, context: String? = nil) -> SQLiteError {
        guard let db else {
            return SQLiteError(code: fallback, message: String(cString: sqlite3_errstr(fallback)), context: context)
        }
        let code = sqlite3_extended_errcode(db)
        return SQLiteError(code: code == 0 ? fallback : code, message: String(cString: sqlite3_errmsg(db)), context: context)
    }
}
