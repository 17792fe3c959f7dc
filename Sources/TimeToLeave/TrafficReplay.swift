public import Foundation
public import RoutePlanning
import Synchronization

/// Recorded traffic to play back: CSV lines `offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh`,
/// each applied as a live speed (OSRM's segment speed) `offset_seconds` after the replay starts,
/// on the service's clock. A header line and `#` comments are allowed. Tests and demos use it to
/// move departures deterministically.
///
/// ```
/// offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh
/// 30,25291683,25291684,8
/// 30,25291684,25291683,8
/// 120,25291683,25291684,50
/// ```
public struct TrafficReplay: Sendable, Equatable {
    public struct Row: Sendable, Equatable {
        public var offsetSeconds: Double
        public var from: Int64
        public var to: Int64
        public var speedKmh: Double
        public init(offsetSeconds: Double, from: Int64, to: Int64, speedKmh: Double) {
            self.offsetSeconds = offsetSeconds
            self.from = from
            self.to = to
            self.speedKmh = speedKmh
        }
    }

    /// Rows sorted by offset (stable: rows at the same offset keep their order, later ones win).
    public var rows: [Row]
    public var source: String

    public init(rows: [Row], source: String = "replay") {
        self.rows = rows.enumerated().sorted { ($0.element.offsetSeconds, $0.offset) < ($1.element.offsetSeconds, $1.offset) }.map(\.element)
        self.source = source
    }

    public static func load(path: String) throws(TrafficReplayError) -> TrafficReplay {
        guard let data = FileManager.default.contents(atPath: path) else { throw TrafficReplayError("cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw TrafficReplayError("\(path) is not UTF-8 text") }
        return try parse(text, source: (path as NSString).lastPathComponent)
    }

    public static func parse(_ text: String, source: String = "replay") throws(TrafficReplayError) -> TrafficReplay {
        var rows: [Row] = []
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if rows.isEmpty && i == 0, let first = f.first, first.first?.isLetter == true { continue }  // header
            guard f.count == 4 else {
                throw TrafficReplayError("\(source) line \(i + 1): expected offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh, found \(f.count) fields")
            }
            guard let offset = Double(f[0]), offset.isFinite, offset >= 0 else {
                throw TrafficReplayError("\(source) line \(i + 1): offset \"\(f[0])\" is not a number of seconds ≥ 0")
            }
            guard let from = Int64(f[1]), let to = Int64(f[2]), from > 0, to > 0 else {
                throw TrafficReplayError("\(source) line \(i + 1): \"\(f[1]),\(f[2])\" is not a pair of positive OSM node ids")
            }
            guard let speed = Double(f[3]), speed.isFinite, speed >= 0, speed <= 300 else {
                throw TrafficReplayError("\(source) line \(i + 1): speed \"\(f[3])\" is not a number of km/h in 0...300")
            }
            rows.append(Row(offsetSeconds: offset, from: from, to: to, speedKmh: speed))
        }
        guard !rows.isEmpty else { throw TrafficReplayError("\(source) has no rows") }
        return TrafficReplay(rows: rows, source: source)
    }

    /// Seconds from the start to the last row.
    public var durationSeconds: Double { rows.last?.offsetSeconds ?? 0 }
}

/// A replay file that could not be read.
public struct TrafficReplayError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ message: String) { description = message }
}

/// Plays a `TrafficReplay` into a planning engine: each call applies the rows that have come due
/// since the last call, as one live update (rows for the same segment: the later wins).
public final class TrafficReplayer: Sendable {
    public let replay: TrafficReplay
    /// The moment offset 0 corresponds to (service clock).
    public let start: Date
    /// How long each applied update stays in force.
    public let expiresInSeconds: Double
    private let next = Mutex<Int>(0)

    public init(_ replay: TrafficReplay, start: Date, expiresInSeconds: Double = 6 * 3600) {
        self.replay = replay
        self.start = start
        self.expiresInSeconds = expiresInSeconds
    }

    /// Rows applied so far.
    public var appliedRows: Int { next.withLock { $0 } }
    public var isFinished: Bool { appliedRows >= replay.rows.count }

    /// Applies every row due at `now`; returns how many rows were applied.
    @discardableResult
    public func applyDue(to planning: PlanningEngine, now: Date) throws -> Int {
        let elapsed = now.timeIntervalSince(start)
        let due = next.withLock { i -> ArraySlice<TrafficReplay.Row> in
            var j = i
            while j < replay.rows.count && replay.rows[j].offsetSeconds <= elapsed { j += 1 }
            defer { i = j }
            return replay.rows[i..<j]
        }
        guard let last = due.last else { return 0 }
        var csv = ""
        for row in due { csv += "\(row.from),\(row.to),\(Self.number(row.speedKmh))\n" }
        _ = try planning.applyTraffic(Array(csv.utf8), kind: .speeds, expiresInSeconds: expiresInSeconds,
                                      source: "\(replay.source) @ +\(Int(last.offsetSeconds)) s")
        return due.count
    }

    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}


extension TrafficReplay {
    /// A replay that jams a route (every segment at `jamKmh` from `at` seconds) and clears it
    /// again at `clearAt` (each segment back at its road's usual speed): a demo whose departure
    /// moves earlier, then back. Nil when the route's roads cannot be found in `planning`.
    public static func jamming(_ path: RoutePath, planning: PlanningEngine, at: Double = 30, clearAt: Double = 150,
                               jamKmh: Double = 8) -> TrafficReplay? {
        var rows: [Row] = []
        for segment in planning.segments(of: path) {
            rows.append(Row(offsetSeconds: at, from: segment.from, to: segment.to, speedKmh: jamKmh))
            rows.append(Row(offsetSeconds: clearAt, from: segment.from, to: segment.to,
                            speedKmh: segment.usualSpeedKmh > 0 ? segment.usualSpeedKmh : 50))
        }
        return rows.isEmpty ? nil : TrafficReplay(rows: rows, source: "jam")
    }

    /// The replay as a CSV file's text, with its header.
    public var csv: String {
        "offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh\n"
            + rows.map { "\(TrafficReplayer.number($0.offsetSeconds)),\($0.from),\($0.to),\(TrafficReplayer.number($0.speedKmh))\n" }.joined()
    }
}
