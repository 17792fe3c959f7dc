import Testing
import Foundation
import MapsTestSupport
import SQLite

@Suite("SQLite wrapper") struct SQLiteTests {
    @Test func bindStepAndColumns() throws {
        let db = try Database.inMemory()
        try db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB)")
        let insert = try db.prepare("INSERT INTO t(name, score, data) VALUES(?1, ?2, ?3)")
        try insert.run([.text("Töölö"), .real(1.5), .blob([1, 2, 3])])
        try insert.run([.null, .integer(2), .blob([])])
        #expect(db.lastInsertRowID == 2)
        let select = try db.prepare("SELECT id, name, score, data FROM t ORDER BY id")
        #expect(try select.step())
        #expect(select.int64(0) == 1)
        #expect(select.text(1) == "Töölö")
        #expect(select.double(2) == 1.5)
        #expect(select.blob(3) == [1, 2, 3])
        #expect(try select.step())
        #expect(select.isNull(1))
        #expect(select.optionalText(1) == nil)
        #expect(select.value(2) == .real(2))
        #expect(try !select.step())
        #expect(try db.scalarInt64("SELECT COUNT(*) FROM t") == 2)
        var ids: [Int64] = []
        try select.forEachRow { ids.append($0.int64(0)) }
        #expect(ids == [1, 2])
        #expect(try db.scalarText("SELECT name FROM t WHERE id = ?1", [.integer(1)]) == "Töölö")
    }

    @Test func emptyStringIsNotNull() throws {
        let db = try Database.inMemory()
        #expect(try db.scalarText("SELECT ?1 IS NULL", [.text("")]) == "0")
        #expect(try db.scalarText("SELECT length(?1)", [.text("")]) == "0")
    }

    @Test func errorsCarrySQLiteMessage() throws {
        let db = try Database.inMemory()
        #expect(throws: SQLiteError.self) { try db.exec("SELEC nonsense") }
        do {
            _ = try db.prepare("SELECT * FROM missing_table")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("no such table"))
            #expect(error.context == "SELECT * FROM missing_table")
        }
    }

    @Test func transactionRollsBackOnError() throws {
        let db = try Database.inMemory()
        try db.exec("CREATE TABLE t(x INTEGER UNIQUE)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.exec("INSERT INTO t VALUES(1)")
                throw Boom()
            }
        }
        #expect(try db.scalarInt64("SELECT COUNT(*) FROM t") == 0)
        try db.transaction { try db.exec("INSERT INTO t VALUES(1)") }
        #expect(try db.scalarInt64("SELECT COUNT(*) FROM t") == 1)
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let dir = Fixtures.temporaryDirectory("sqlite-test")
        let path = dir.appendingPathComponent("t.sqlite").path
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.exec("CREATE TABLE t(x); INSERT INTO t VALUES(7)")
        }
        let reader = try Database(path: path, mode: .readOnly)
        #expect(try reader.scalarInt64("SELECT x FROM t") == 7)
        #expect(throws: SQLiteError.self) { try reader.exec("INSERT INTO t VALUES(8)") }
        #expect(throws: SQLiteError.self) { _ = try Database(path: dir.appendingPathComponent("missing.sqlite").path, mode: .readOnly) }
    }

    @Test func cachedStatementsComeBackReset() throws {
        let db = try Database.inMemory()
        let a = try db.cachedStatement("SELECT ?1 + 1")
        try a.bind(41, at: 1)
        #expect(try a.step())
        #expect(a.int(0) == 42)
        let b = try db.cachedStatement("SELECT ?1 + 1")
        #expect(a === b)
        #expect(try b.step())
        #expect(b.isNull(0))
    }

    @Test func fts5RTreeAndTokenizerAreAvailable() throws {
        let db = try Database.inMemory()
        try db.exec("""
            CREATE VIRTUAL TABLE f USING fts5(name, tokenize='unicode61 remove_diacritics 2');
            INSERT INTO f(rowid, name) VALUES(1, 'Helsingin päärautatieasema'), (2, 'Töölönlahti');
            CREATE VIRTUAL TABLE r USING rtree_i32(id, a, b, c, d, +payload);
            INSERT INTO r VALUES(1, 10, 20, 10, 20, 'x');
            """)
        #expect(try db.scalarInt64("SELECT rowid FROM f WHERE f MATCH 'paarautatie*'") == 1)
        #expect(try db.scalarInt64("SELECT rowid FROM f WHERE f MATCH 'toolonlahti'") == 2)
        #expect(try db.scalarText("SELECT payload FROM r WHERE a <= 15 AND b >= 15") == "x")
        let tokenizer = try FTS5Tokenizer(database: db)
        #expect(tokenizer.tokens("Töölö, Mannerheimintie 5 A!") == ["toolo", "mannerheimintie", "5", "a"])
        #expect(tokenizer.tokens("") == [])
    }

    @Test func poolGivesEachThreadItsOwnConnection() throws {
        let dir = Fixtures.temporaryDirectory("sqlite-pool")
        let path = dir.appendingPathComponent("p.sqlite").path
        do {
            let db = try Database(path: path, mode: .readWriteCreate)
            try db.exec("CREATE TABLE t(x); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) INSERT INTO t SELECT i FROM c")
        }
        let pool = ConnectionPool<Database>(maximumIdle: 4) { try Database(path: path, mode: .readOnly) }
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            do {
                let sum = try pool.withConnection { db in try db.scalarInt64("SELECT SUM(x) FROM t WHERE x <= ?1", [.integer(Int64(i + 1))]) }
                if sum != Int64((i + 1) * (i + 2) / 2) { failures.add() }
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
        #expect(pool.connectionsOpened >= 1)
    }
}

/// A tiny lock-protected counter for the concurrency tests.
final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ value: Int) { count = value }
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
