/// Per-segment weekly speeds as read from a profile file, kept compact: every distinct list of
/// speeds is stored once and each segment points to its list.
///
/// An operator with full historical data has a profile on every segment (OSRM-style node pairs,
/// two per road segment): 11 million lines for a 5-million-node map. Expanding each to the 672
/// quarter-hours of the week as doubles would take 59 GB; as shared lists of the values given it
/// takes the three id columns plus the distinct lists (real profile data is drawn from a library
/// of shapes, as HERE's and TomTom's traffic patterns are).
public struct SegmentProfiles: Sendable {
    /// Speeds given per line: 24 (hourly, every day alike), 96 (quarter-hourly, every day alike),
    /// 168 (hourly for a week) or 672 (quarter-hourly for a week), Monday 00:00 first.
    public let valuesPerProfile: Int
    /// `valuesPerProfile` speeds (km/h) per distinct profile.
    public private(set) var speeds: [Float] = []
    public private(set) var from: [Int64] = []
    public private(set) var to: [Int64] = []
    /// The profile of each line.
    public private(set) var profile: [UInt32] = []

    public static let allowedCounts = [24, 96, 168, 672]

    public init(valuesPerProfile: Int) {
        precondition(Self.allowedCounts.contains(valuesPerProfile))
        self.valuesPerProfile = valuesPerProfile
    }

    public var count: Int { from.count }
    public var profileCount: Int { speeds.count / max(1, valuesPerProfile) }
    public var isEmpty: Bool { from.isEmpty }

    /// Which of a profile's values holds in week slot `slot` (0..<672, quarter-hours from Monday 00:00).
    @inlinable
    public func valueIndex(slot: Int) -> Int {
        switch valuesPerProfile {
        case 24: (slot % 96) / 4
        case 96: slot % 96
        case 168: slot / 4
        default: slot
        }
    }

    /// The speed (km/h) of profile `p` in week slot `slot`.
    @inlinable
    public func speed(_ p: Int, slot: Int) -> Double {
        Double(speeds[p * valuesPerProfile + valueIndex(slot: slot)])
    }

    /// Line `i`'s speeds for all 672 slots of the week.
    public func weekSpeeds(_ i: Int) -> [Double] {
        let p = Int(profile[i])
        return (0..<672).map { speed(p, slot: $0) }
    }

    private var lookup: [Int: [UInt32]] = [:]

    /// Adds a line; its speeds are shared with an identical earlier line's.
    mutating func append(from a: Int64, to b: Int64, speeds values: UnsafeBufferPointer<Float>) {
        var hasher = Hasher()
        for v in values { hasher.combine(v.bitPattern) }
        let key = hasher.finalize()
        let n = valuesPerProfile
        var id: UInt32?
        if let candidates = lookup[key] {
            for c in candidates {
                let start = Int(c) * n
                var same = true
                for i in 0..<n where speeds[start + i] != values[i] { same = false; break }
                if same { id = c; break }
            }
        }
        if id == nil {
            let new = UInt32(profileCount)
            speeds.append(contentsOf: values)
            lookup[key, default: []].append(new)
            id = new
        }
        from.append(a)
        to.append(b)
        profile.append(id!)
    }
}

extension SegmentSpeedCSV {
    /// Per-segment weekly speeds: `from,to,v1,…,vN` with N = 24, 96, 168 or 672 speeds in km/h
    /// (every line of a file has the same N). Streams the bytes; identical lists are stored once.
    public static func parseProfiles(_ bytes: [UInt8], source: String) throws(TrafficError) -> SegmentProfiles {
        var result: SegmentProfiles?
        var values = [Float](repeating: 0, count: 672)
        try scan(bytes, source: source) { (fields, line) throws(TrafficError) in
            let n = fields.count - 2
            guard SegmentProfiles.allowedCounts.contains(n) else {
                throw TrafficError(source: source, line: line, "expected 24, 96, 168 or 672 speeds after the node pair, found \(max(0, n))")
            }
            if let r = result, r.valuesPerProfile != n {
                throw TrafficError(source: source, line: line, "found \(n) speeds where earlier lines have \(r.valuesPerProfile); give every segment the same number")
            }
            let (from, to) = try nodePair(fields, line: line, source: source)
            for i in 0..<n {
                let f = fields[i + 2]
                guard let v = f.number, v > 0, v <= maxSpeedKmh else {
                    throw TrafficError(source: source, line: line, "speed \"\(f.text)\" is not a number of km/h in (0, \(Int(maxSpeedKmh))]")
                }
                values[i] = Float(v)
            }
            if result == nil { result = SegmentProfiles(valuesPerProfile: n) }
            values.withUnsafeBufferPointer { all in
                result!.append(from: from, to: to, speeds: UnsafeBufferPointer(rebasing: all[0..<n]))
            }
        }
        return result ?? SegmentProfiles(valuesPerProfile: 24)
    }
}
