import Foundation
import SQLite
import Deflate

/// One stored event: what a reconnecting client is sent again.
struct StoredEvent: Sendable, Equatable {
    var watchID: String
    var id: Int
    var type: String
    /// Seconds since 1970.
    var at: Double
    /// The watch document at that moment, as JSON.
    var data: String
}

/// Watches and their recent events in SQLite (`state/timetoleave.sqlite`): a server restart or a
/// re-import (which keeps `state/`) finds them again. Records and event data are JSON, stored
/// DEFLATE-compressed. One connection, used under a lock; writes of a tick go in one
/// transaction (WAL, synchronous=NORMAL).
final class WatchStore: @unchecked Sendable {
    let path: String
    private let db: Database
    /// Used under `lock` only (libdeflate's state is not shared between threads).
    private let compressor: DeflateCompressor
    private let decompressor: DeflateDecompressor
    private let lock = NSLock()
    static let schemaVersion: Int64 = 1

    /// Opens (creating) the store; `":memory:"` keeps everything in memory.
    init(path: String) throws {
        self.path = path
        if path != ":memory:" {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        }
        guard let compressor = DeflateCompressor(level: 6), let decompressor = DeflateDecompressor() else {
            throw WatchStoreError("libdeflate could not allocate a compressor")
        }
        self.compressor = compressor
        self.decompressor = decompressor
        db = try Database(path: path, mode: .readWriteCreate)
        db.setBusyTimeout(milliseconds: 5000)
        if path != ":memory:" {
            try db.exec("PRAGMA journal_mode=WAL")
            try db.exec("PRAGMA synchronous=NORMAL")
        }
        let version = try db.scalarInt64("PRAGMA user_version") ?? 0
        guard version <= Self.schemaVersion else {
            throw WatchStoreError("\(path) was written by a newer wayfinder (schema \(version))")
        }
        try db.exec("""
            CREATE TABLE IF NOT EXISTS watches (
                id TEXT PRIMARY KEY, created_at REAL NOT NULL, arrive_at REAL NOT NULL,
                record BLOB NOT NULL, record_size INTEGER NOT NULL, updated_at REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS events (
                watch_id TEXT NOT NULL, event_id INTEGER NOT NULL, type TEXT NOT NULL, at REAL NOT NULL,
                data BLOB NOT NULL, data_size INTEGER NOT NULL,
                PRIMARY KEY (watch_id, event_id)) WITHOUT ROWID;
            PRAGMA user_version = \(Self.schemaVersion);
            """)
    }

    private func locked<R>(_ body: () throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    func loadAll() throws -> [WatchRecord] {
        try locked {
            let statement = try db.prepare("SELECT record, record_size FROM watches ORDER BY created_at, id")
            var records: [WatchRecord] = []
            let decoder = JSONDecoder()
            try statement.forEachRow { row in
                // A row that no longer decodes is skipped rather than failing every other watch.
                if let json = try? decompressor.decompress(row.blob(0), .raw, size: row.int(1)).get(),
                   let r = try? decoder.decode(WatchRecord.self, from: Data(json)) { records.append(r) }
            }
            return records
        }
    }

    /// Saves records and appends events in one transaction, keeping the newest `keepEvents` per watch.
    func commit(records: [WatchRecord], events: [StoredEvent], keepEvents: Int, now: Double) throws {
        guard !records.isEmpty || !events.isEmpty else { return }
        let encoder = Self.encoder()
        try locked {
            try db.transaction {
                let save = try db.cachedStatement("""
                    INSERT INTO watches (id, created_at, arrive_at, record, record_size, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET record = excluded.record, record_size = excluded.record_size, updated_at = excluded.updated_at
                    """)
                for r in records {
                    let json = Array(try encoder.encode(r))
                    try save.run([.text(r.id), .real(r.createdAt), .real(r.spec.arriveAt), .blob(compressor.compress(json, .raw) ?? []),
                                  .integer(Int64(json.count)), .real(now)])
                }
                let insert = try db.cachedStatement("INSERT OR REPLACE INTO events (watch_id, event_id, type, at, data, data_size) VALUES (?, ?, ?, ?, ?, ?)")
                let trim = try db.cachedStatement("DELETE FROM events WHERE watch_id = ? AND event_id <= ?")
                for e in events {
                    let data = Array(e.data.utf8)
                    try insert.run([.text(e.watchID), .integer(Int64(e.id)), .text(e.type), .real(e.at), .blob(compressor.compress(data, .raw) ?? []),
                                    .integer(Int64(data.count))])
                    if e.id > keepEvents { try trim.run([.text(e.watchID), .integer(Int64(e.id - keepEvents))]) }
                }
            }
        }
    }

    func delete(_ ids: [String]) throws {
        guard !ids.isEmpty else { return }
        try locked {
            try db.transaction {
                let watches = try db.cachedStatement("DELETE FROM watches WHERE id = ?")
                let events = try db.cachedStatement("DELETE FROM events WHERE watch_id = ?")
                for id in ids {
                    try watches.run([.text(id)])
                    try events.run([.text(id)])
                }
            }
        }
    }

    /// Stored events of a watch with ids above `after`, oldest first.
    func events(_ watchID: String, after: Int) throws -> [StoredEvent] {
        try locked {
            let statement = try db.cachedStatement("SELECT event_id, type, at, data, data_size FROM events WHERE watch_id = ? AND event_id > ? ORDER BY event_id")
            try statement.bind([.text(watchID), .integer(Int64(after))])
            var out: [StoredEvent] = []
            try statement.forEachRow { row in
                guard let data = try? decompressor.decompress(row.blob(3), .raw, size: row.int(4)).get() else { return }
                out.append(StoredEvent(watchID: watchID, id: row.int(0), type: row.text(1), at: row.double(2), data: String(decoding: data, as: UTF8.self)))
            }
            return out
        }
    }

    /// Bytes used by the database file (0 in memory).
    var fileBytes: Int {
        guard path != ":memory:" else { return 0 }
        let size = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.size] as? Int) ?? 0 }
        return size(path) + size(path + "-wal")
    }
}

/// The store could not be opened or written.
public struct WatchStoreError: Error, CustomStringConvertible {
    public var description: String
    init(_ message: String) { description = message }
}
