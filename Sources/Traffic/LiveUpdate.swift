import Foundation
import BinaryIO

/// One live traffic update as stored under `state/traffic/live/`: speeds or closures for OSM node
/// pairs, valid from `createdAt` until `expiresAt` (seconds since 1970).
///
/// The file is a JSON header line followed by fixed 24-byte records (from, to, speed), so a
/// 550,000-segment update loads in milliseconds; it is written to a temporary name and renamed.
public struct LiveUpdate: Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case speeds, closures }

    public var id: String
    public var kind: Kind
    public var createdAt: Double
    public var expiresAt: Double
    public var source: String
    public var entries: [SegmentSpeedCSV.Entry]

    public init(id: String, kind: Kind, createdAt: Double, expiresAt: Double, source: String, entries: [SegmentSpeedCSV.Entry]) {
        self.id = id
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.source = source
        self.entries = entries
    }

    struct Header: Codable {
        var id: String, kind: Kind, createdAt: Double, expiresAt: Double, source: String, count: Int
    }

    func encoded() throws -> [UInt8] {
        let header = Header(id: id, kind: kind, createdAt: createdAt, expiresAt: expiresAt, source: source, count: entries.count)
        var bytes = Array(try JSONEncoder().encode(header)) + [10]
        bytes.reserveCapacity(bytes.count + entries.count * 24)
        for e in entries {
            withUnsafeBytes(of: e.from.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: e.to.littleEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: (e.speedKmh ?? -1).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8], path: String) throws(TrafficError) -> LiveUpdate {
        guard let newline = bytes.firstIndex(of: 10),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline])) else {
            throw TrafficError(source: path, "not a live traffic update file")
        }
        let body = newline + 1
        guard bytes.count - body == header.count * 24 else { throw TrafficError(source: path, "truncated: expected \(header.count) records") }
        var entries: [SegmentSpeedCSV.Entry] = []
        entries.reserveCapacity(header.count)
        bytes.withUnsafeBytes { raw in
            for i in 0..<header.count {
                let o = body + i * 24
                let from = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: Int64.self))
                let to = Int64(littleEndian: raw.loadUnaligned(fromByteOffset: o + 8, as: Int64.self))
                let speed = Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self)))
                entries.append(.init(from: from, to: to, speedKmh: speed < 0 ? nil : speed))
            }
        }
        return LiveUpdate(id: header.id, kind: header.kind, createdAt: header.createdAt, expiresAt: header.expiresAt,
                          source: header.source, entries: entries)
    }
}
