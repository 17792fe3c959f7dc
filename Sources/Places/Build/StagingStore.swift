import SQLite
import GeoCore
import BinaryIO

/// Where the builder puts records as it reads them: a temporary SQLite file beside the index, written
/// in batched transactions. A record whose geometry comes from ways or relations waits there until
/// the node pass has given their nodes positions; afterwards records are read back one at a time, in
/// the order the build needs (SQLite sorts on disk), so no stage holds every place in memory.
final class StagingStore {
    enum Source {
        case point
        case way(Int32)
        case relation(Int)

        var code: Int64 {
            switch self {
            case .point: -1
            case .way(let w): Int64(w) << 1
            case .relation(let r): Int64(r) << 1 | 1
            }
        }

        init(code: Int64) {
            if code < 0 { self = .point } else if code & 1 == 0 { self = .way(Int32(code >> 1)) } else { self = .relation(Int(code >> 1)) }
        }
    }

    /// Addresses tagged on their own object, taken from a POI's tags, or interpolated: the order in which
    /// copies of one address are kept.
    static func priority(_ r: PlaceRecord) -> Int {
        guard r.kind == .address else { return 0 }
        if r.flags.contains(.interpolated) { return 2 }
        return r.flags.contains(.fromPOI) ? 1 : 0
    }

    let path: String
    private let database: Database
    private let insert: Statement
    private var pendingInTransaction = 0
    private(set) var count = 0
    static let batchSize = 20_000

    init(path: String) throws {
        self.path = path
        FileIO.remove(path)
        database = try Database(path: path, mode: .readWriteCreate)
        try database.exec("""
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE; PRAGMA cache_size=-32768;
            CREATE TABLE staged(seq INTEGER PRIMARY KEY, kind INTEGER NOT NULL, priority INTEGER NOT NULL,
                                source INTEGER NOT NULL, resolved INTEGER NOT NULL, record BLOB NOT NULL, shape BLOB);
            """)
        insert = try database.prepare("INSERT INTO staged(kind, priority, source, resolved, record) VALUES(?1, ?2, ?3, ?4, ?5)")
        try database.exec("BEGIN")
    }

    deinit {
        FileIO.remove(path)
    }

    func add(_ r: PlaceRecord, source: Source) throws {
        if case .point = source {} else { precondition(r.kind != .street) }
        let resolved: Int64 = if case .point = source { 1 } else { 0 }
        try insert.run([.integer(Int64(r.kind.rawValue)), .integer(Int64(Self.priority(r))), .integer(source.code),
                        .integer(resolved), .blob(RecordCodec.encode(r))])
        count += 1
        try batch()
    }

    private func batch() throws {
        pendingInTransaction += 1
        if pendingInTransaction >= Self.batchSize {
            try database.exec("COMMIT; BEGIN")
            pendingInTransaction = 0
        }
    }

    /// Gives every record still waiting for its geometry a position, an extent and (for areas) an outline;
    /// `locate` returns nil when the geometry is missing from the extract, and the record is dropped.
    func resolve(_ locate: (PlaceRecord, Source) -> (position: Coordinate, extent: BoundingBox, shape: Shape?)?) throws -> Int {
        try database.exec("COMMIT; BEGIN")
        // In batches: the table is not changed under a running SELECT.
        let select = try database.prepare("SELECT seq, source, record FROM staged WHERE resolved = 0 AND seq > ?1 ORDER BY seq LIMIT 4096")
        let update = try database.prepare("UPDATE staged SET resolved = 1, record = ?2, shape = ?3 WHERE seq = ?1")
        let delete = try database.prepare("DELETE FROM staged WHERE seq = ?1")
        var missing = 0
        var last: Int64 = 0
        while true {
            var rows: [(seq: Int64, source: Int64, record: [UInt8])] = []
            select.reset()
            try select.bind(last, at: 1)
            while try select.step() { rows.append((select.int64(0), select.int64(1), select.blob(2))) }
            guard let end = rows.last?.seq else { break }
            last = end
            for row in rows {
                guard var r = RecordCodec.decode(row.record), let found = locate(r, Source(code: row.source)),
                      Coordinate.isValid(latitude: found.position.latitude, longitude: found.position.longitude) else {
                    try delete.run([.integer(row.seq)])
                    missing += 1
                    continue
                }
                r.position = found.position
                r.extent = found.extent
                if found.shape != nil { r.flags.insert(.hasShape) }
                try update.run([.integer(row.seq), .blob(RecordCodec.encode(r)), found.shape.map { .blob($0.encoded()) } ?? .null])
                try batch()
            }
        }
        try database.exec("COMMIT; BEGIN")
        count -= missing
        return missing
    }

    /// Records of the given kinds, ordered by `order` (an SQL ORDER BY over `seq` and `priority`).
    func forEach(kinds: [PlaceKind], order: String = "seq", _ body: (Int64, PlaceRecord, Shape?) throws -> Void) throws {
        try database.exec("COMMIT; BEGIN")
        let list = kinds.map { String($0.rawValue) }.joined(separator: ",")
        let select = try database.prepare("SELECT seq, record, shape FROM staged WHERE kind IN (\(list)) ORDER BY \(order)")
        while try select.step() {
            guard let r = RecordCodec.decode(select.blob(1)) else { continue }
            let shape = select.isNull(2) ? nil : Shape(encoded: select.blob(2))
            try body(select.int64(0), r, shape)
        }
    }

    /// The largest sequence number handed out (sequence numbers start at 1).
    var maximumSequence: Int64 {
        (try? database.scalarInt64("SELECT COALESCE(MAX(seq), 0) FROM staged")) ?? 0
    }
}
