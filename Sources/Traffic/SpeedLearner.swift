public import Foundation
import BinaryIO
import GeoCore
import Synchronization

/// Historical speeds the server learns from the live speeds it receives (uploads of the segment
/// speed feed and probe speeds): per segment (OSM node pair) and 15-minute slot of the week, the
/// average over weeks of each week's mean speed. A slot counts only once it has
/// `minimumObservations` observations (one per live update naming the segment, at the slot the
/// update was posted in); until then routes keep the speeds they had there.
///
/// Kept in `state/traffic/learned-speeds.bin` (written to a temporary name, then renamed), so
/// that a restart keeps what was learned; segments are node pairs, so it survives a re-import.
public final class SpeedLearner: Sendable {
    public static let defaultMinimumObservations = 4

    public let path: String
    public let timeZone: TimeZone
    public let minimumObservations: Int

    struct Segment: Hashable { var from: Int64, to: Int64 }
    struct Cell {
        /// The sum of the means of the weeks before `week`, and how many weeks that is.
        var pastMeans: Float = 0
        var pastWeeks: UInt16 = 0
        var week: Int32 = 0
        var weekSum: Float = 0
        var weekCount: UInt16 = 0
        var observations: UInt32 = 0

        var averageKmh: Double {
            let current = weekCount > 0 ? Double(weekSum) / Double(weekCount) : 0
            let weeks = Double(pastWeeks) + (weekCount > 0 ? 1 : 0)
            return weeks > 0 ? (Double(pastMeans) + current) / weeks : 0
        }
    }

    private struct State {
        var cells: [Segment: [UInt16: Cell]] = [:]
        /// Bumped whenever the slots that count (or their speeds) change.
        var version = 0
    }
    private let state: Mutex<State>
    /// Held while a snapshot is taken and written, so that files are written in the order of
    /// their snapshots; the state itself is locked only to change or copy it.
    private let writing = Mutex(())

    /// Loads what was learned before from `state/traffic/learned-speeds.bin`, if anything.
    public init(stateFolder: String, timeZone: TimeZone, minimumObservations: Int = SpeedLearner.defaultMinimumObservations) {
        path = Self.path(stateFolder: stateFolder)
        self.timeZone = timeZone
        self.minimumObservations = max(1, minimumObservations)
        state = Mutex(State(cells: (try? FileIO.readAll(path)).flatMap(Self.decode) ?? [:]))
    }

    /// Where a dataset's learned speeds are kept.
    public static func path(stateFolder: String) -> String { stateFolder + "/traffic/learned-speeds.bin" }

    /// Changes whenever `profiles()` would answer differently.
    public var version: Int { state.withLock { $0.version } }

    /// Records the speeds of a live update as observations of the slot it was posted in; closures
    /// are not speeds and are not learned. Saves the state when it changed; returns whether
    /// the slots that count changed (so that routes should be re-timed).
    @discardableResult
    public func observe(_ update: LiveUpdate) throws -> Bool {
        guard update.kind == .speeds else { return false }
        let (slot, week) = Self.slotAndWeek(update.createdAt, offset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: update.createdAt)))
        let minimum = UInt32(minimumObservations)
        return try writing.withLock { _ in try record(update, slot: slot, week: week, minimum: minimum) }
    }

    private func record(_ update: LiveUpdate, slot: UInt16, week: Int32, minimum: UInt32) throws -> Bool {
        let (changed, recorded, cells) = state.withLock { s -> (Bool, Bool, [Segment: [UInt16: Cell]]) in
            var changed = false, recorded = false
            for e in update.entries {
                guard let speed = e.speedKmh, speed > 0 else { continue }
                recorded = true
                let key = Segment(from: e.from, to: e.to)
                var cell = s.cells[key]?[slot] ?? Cell(week: week)
                if cell.week != week {
                    if cell.weekCount > 0 {
                        cell.pastMeans += cell.weekSum / Float(cell.weekCount)
                        cell.pastWeeks &+= 1
                    }
                    cell = Cell(pastMeans: cell.pastMeans, pastWeeks: cell.pastWeeks, week: week, observations: cell.observations)
                }
                cell.weekSum += Float(speed)
                cell.weekCount &+= 1
                cell.observations &+= 1
                s.cells[key, default: [:]][slot] = cell
                if cell.observations >= minimum { changed = true }
            }
            if changed { s.version += 1 }
            return (changed, recorded, s.cells)
        }
        // Nothing new to keep: the file stays as it is.
        guard recorded else { return false }
        try FileIO.makeDirectory((path as NSString).deletingLastPathComponent)
        try FileIO.writeAtomically(Self.encode(cells), to: path)
        return changed
    }

    /// The learned speeds as weekly profiles: 672 quarter-hours per segment, 0 where a slot has
    /// fewer than `minimumObservations` observations; nil when no slot counts yet.
    public func profiles() -> SegmentProfiles? {
        let minimum = UInt32(minimumObservations)
        return state.withLock { s -> SegmentProfiles? in
            var result = SegmentProfiles(valuesPerProfile: 672)
            var speeds = [Float](repeating: 0, count: 672)
            for (segment, slots) in s.cells.sorted(by: { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) }) {
                var any = false
                for i in speeds.indices { speeds[i] = 0 }
                for (slot, cell) in slots where cell.observations >= minimum {
                    speeds[Int(slot)] = Float(cell.averageKmh)
                    any = true
                }
                guard any else { continue }
                speeds.withUnsafeBufferPointer { result.append(from: segment.from, to: segment.to, speeds: $0) }
            }
            return result.isEmpty ? nil : result
        }
    }

    /// What has been learned: segments and slots observed, and the slots that count.
    public struct Summary: Sendable, Equatable {
        public var segments = 0
        public var observedSlots = 0
        public var countingSlots = 0
    }

    public var summary: Summary {
        let minimum = UInt32(minimumObservations)
        return state.withLock { s in
            var summary = Summary(segments: s.cells.count)
            for slots in s.cells.values {
                summary.observedSlots += slots.count
                summary.countingSlots += slots.values.count { $0.observations >= minimum }
            }
            return summary
        }
    }

    /// The quarter-hour of the week (Monday 00:00 local time first) and the week's number.
    static func slotAndWeek(_ time: Double, offset: Int) -> (UInt16, Int32) {
        let (seconds, week) = LocalWeek.position(time, utcOffsetSeconds: offset)
        return (UInt16(min(671, seconds / 900)), Int32(week))
    }

    // MARK: File

    static let magic = Array("WAYFINDER-LEARNED-SPEEDS 1\n".utf8)
    static let recordBytes = 40

    static func encode(_ cells: [Segment: [UInt16: Cell]]) -> [UInt8] {
        var bytes = magic
        bytes.reserveCapacity(magic.count + cells.values.reduce(0) { $0 + $1.count } * recordBytes)
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        for (segment, slots) in cells {
            for (slot, c) in slots {
                put(segment.from); put(segment.to); put(slot); put(c.pastWeeks); put(c.weekCount); put(UInt16(0))
                put(c.week); put(c.observations); put(c.pastMeans.bitPattern); put(c.weekSum.bitPattern)
            }
        }
        return bytes
    }

    /// nil when the file is not a learned-speeds file (it is then ignored, and replaced on the next observation).
    static func decode(_ bytes: [UInt8]) -> [Segment: [UInt16: Cell]]? {
        guard bytes.count >= magic.count, Array(bytes[..<magic.count]) == magic,
              (bytes.count - magic.count) % recordBytes == 0 else { return nil }
        var cells: [Segment: [UInt16: Cell]] = [:]
        bytes.withUnsafeBytes { raw in
            var o = magic.count
            func get<T: FixedWidthInteger>(_: T.Type) -> T {
                defer { o += MemoryLayout<T>.size }
                return T(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: T.self))
            }
            while o < raw.count {
                let from = get(Int64.self), to = get(Int64.self), slot = get(UInt16.self)
                var c = Cell()
                c.pastWeeks = get(UInt16.self)
                c.weekCount = get(UInt16.self)
                _ = get(UInt16.self)
                c.week = get(Int32.self)
                c.observations = get(UInt32.self)
                c.pastMeans = Float(bitPattern: get(UInt32.self))
                c.weekSum = Float(bitPattern: get(UInt32.self))
                if slot < 672 { cells[Segment(from: from, to: to), default: [:]][slot] = c }
            }
        }
        return cells
    }
}
