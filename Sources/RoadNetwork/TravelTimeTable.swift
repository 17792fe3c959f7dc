public import GeoCore

/// How long each arc takes at any moment of the week: free-flow time × a historical congestion
/// factor (from a shared weekly profile) blended with live speeds and closures near "now".
///
/// The model is the Ichoua–Gendreau–Potvin one: the speed on an arc is piecewise constant in time
/// (on a 5-minute grid) and a vehicle crossing a grid line continues at the new speed. That makes
/// every arc FIFO by construction (leaving later never arrives earlier) and gives an exact inverse
/// for arrive-by searches. Historical factors change every 15 minutes (96 slots a day × 7 days);
/// live speeds count fully for the first `liveFullSeconds` after `referenceTime`, then fade
/// linearly into the historical ones until `liveFadeEndSeconds`, and stop at their expiry.
///
/// This is a plain struct in `RoadNetwork` (not a protocol in `Traffic`) so that the search hot
/// loop is specialised and inlined; the `Traffic` module fills it.
public struct TravelTimeTable: @unchecked Sendable {
    public static let slotsPerWeek = 7 * 96
    public static let gridSeconds = 300.0
    /// Fixed-point scale of the stored factors.
    public static let factorScale: Float = 1024

    public let freeFlowMs: UnsafeBufferPointer<UInt32>
    /// Historical profile per arc; profile p's factors are `profileFactors[p * 672 ..< (p + 1) * 672]`
    /// (Monday 00:00 local time first), scaled by `factorScale`.
    public let profileOfArc: [UInt16]
    public let profileFactors: [UInt16]
    /// Whether each profile has one factor all week (profile 0 without data): arcs on one take
    /// the same time whenever they are entered, unless live data or a speed cap apply.
    @usableFromInline let flatProfiles: [Bool]
    /// Whether every profile is free flow all week (factor 1 in every slot).
    let profilesAreFreeFlow: Bool
    /// Live travel times (ms) with their expiry, and closures (never usable while closed), by arc.
    public let live: LiveOverlay
    /// "Now" for live data (seconds since 1970).
    public let referenceTime: Double
    /// Seconds to add to UTC to get the dataset's local time (taken at `referenceTime`).
    public let utcOffsetSeconds: Int
    /// Where each profile comes from (one per profile; empty: profile 0 is free flow, the others unknown).
    public var profileOrigins: [ProfileOrigin] = []
    public var useLive = true
    public var useHistorical = true
    public var liveFullSeconds = 600.0
    public var liveFadeEndSeconds = 3600.0
    /// When the last live speed expires (-∞ without any).
    public let lastLiveExpiry: Double
    /// Whether any arc is closed at some time (so that searches can skip the closure column).
    public let hasClosures: Bool
    /// The vehicle's top speed (TomTom's `vehicleMaxSpeed`): no arc is driven faster, whatever its
    /// profile or live speed says. nil: the roads' own speeds.
    public var speedCap: SpeedCap?

    /// The same table with `cap` as the vehicle's top speed (nil: the roads' own speeds).
    public func capped(_ cap: SpeedCap?) -> TravelTimeTable {
        var t = self
        t.speedCap = cap
        return t
    }

    /// A top speed as a floor on each arc's factor: its length at that speed over its free-flow time.
    public struct SpeedCap: @unchecked Sendable {
        public let kmh: Double
        @usableFromInline let edgeLengthCm: UnsafeBufferPointer<UInt32>
        @usableFromInline let arcEdge: UnsafeBufferPointer<UInt32>
        /// Milliseconds per centimetre at `kmh`.
        @usableFromInline let msPerCm: Double

        public init(_ graph: RoadGraph, kmh: Double) {
            self.kmh = kmh
            edgeLengthCm = graph.edgeLengthCm
            arcEdge = graph.arcEdge
            msPerCm = 36 / kmh
        }

        /// Milliseconds to drive all of `arc` at the top speed.
        @inlinable public func ms(_ arc: Int) -> Double { Double(edgeLengthCm[Int(arcEdge[arc] >> 1)]) * msPerCm }
    }

    /// Whether every arc takes its free-flow time whenever it is entered: no historical congestion,
    /// no live speed or closure in use (a speed cap aside, which static metrics apply too).
    public var isFreeFlow: Bool {
        (!useHistorical || profilesAreFreeFlow) && liveUntil == nil && !(useLive && hasClosures)
    }

    /// Until when live data can change travel times: it holds from any earlier moment until the
    /// last live speed expires or fades into history (nil without live speeds in use).
    public var liveUntil: Double? {
        guard useLive, lastLiveExpiry > -Double.infinity else { return nil }
        return min(lastLiveExpiry, referenceTime + liveFadeEndSeconds)
    }

    public init(freeFlowMs: UnsafeBufferPointer<UInt32>, profileOfArc: [UInt16], profileFactors: [UInt16],
                live: LiveOverlay, referenceTime: Double, utcOffsetSeconds: Int) {
        precondition(profileOfArc.count == freeFlowMs.count && live.arcCount == freeFlowMs.count)
        precondition(profileFactors.count % Self.slotsPerWeek == 0)
        self.freeFlowMs = freeFlowMs
        self.profileOfArc = profileOfArc
        self.profileFactors = profileFactors
        flatProfiles = (0..<profileFactors.count / Self.slotsPerWeek).map { p in
            let week = profileFactors[(p * Self.slotsPerWeek)..<((p + 1) * Self.slotsPerWeek)]
            return week.allSatisfy { $0 == week.first }
        }
        profilesAreFreeFlow = profileFactors.allSatisfy { $0 == UInt16(Self.factorScale) }
        self.live = live
        self.referenceTime = referenceTime
        self.utcOffsetSeconds = utcOffsetSeconds
        lastLiveExpiry = live.speedExpiry.max() ?? -Double.infinity
        hasClosures = !live.closedArcs.isEmpty
    }

    /// From per-arc live columns (0 = no live time, no closure).
    public init(freeFlowMs: UnsafeBufferPointer<UInt32>, profileOfArc: [UInt16], profileFactors: [UInt16],
                liveMs: [UInt32], liveExpiry: [Double], closedUntil: [Double], referenceTime: Double, utcOffsetSeconds: Int) {
        self.init(freeFlowMs: freeFlowMs, profileOfArc: profileOfArc, profileFactors: profileFactors,
                  live: LiveOverlay(liveMs: liveMs, liveExpiry: liveExpiry, closedUntil: closedUntil),
                  referenceTime: referenceTime, utcOffsetSeconds: utcOffsetSeconds)
    }

    /// The data a weekly profile comes from. Profile 0 is always free flow (no data).
    public struct ProfileOrigin: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The invented congestion by road class of `--demo-congestion`.
        public static let demo = ProfileOrigin(rawValue: 1)
        /// A speed-profile file the operator imported.
        public static let imported = ProfileOrigin(rawValue: 2)
        /// Speeds the server learned from the live traffic it received.
        public static let learned = ProfileOrigin(rawValue: 4)
    }

    /// Where the weekly profile of an arc comes from; empty when it has none (free flow all week).
    @inlinable
    public func profileOrigin(_ arc: Int) -> ProfileOrigin {
        guard useHistorical else { return [] }
        let p = Int(profileOfArc[arc])
        if p == 0 { return [] }
        return p < profileOrigins.count ? profileOrigins[p] : .imported
    }

    /// An arc's live travel time (ms; 0 = none), whether or not it has expired.
    @inlinable public func liveMs(_ arc: Int) -> UInt32 { live.speed(arc)?.ms ?? 0 }

    /// A table with free flow only (no historical congestion, no live data).
    public static func freeFlow(_ graph: RoadGraph, referenceTime: Double = 0) -> TravelTimeTable {
        let n = graph.arcCount
        return TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: [UInt16](repeating: 0, count: n),
                               profileFactors: [UInt16](repeating: UInt16(factorScale), count: slotsPerWeek),
                               live: .empty(arcCount: n), referenceTime: referenceTime, utcOffsetSeconds: 0)
    }

    /// The week slot (0..<672) of an absolute time.
    @inlinable
    public func slot(at time: Double) -> Int {
        Int(LocalWeek.position(time, utcOffsetSeconds: utcOffsetSeconds).secondsIntoWeek / 900)
    }

    /// Historical factor (≥ some minimum, 1 = free flow) of an arc at `time`.
    @inlinable
    public func historicalFactor(_ arc: Int, at time: Double) -> Double {
        guard useHistorical else { return 1 }
        let p = Int(profileOfArc[arc])
        return Double(profileFactors[p * Self.slotsPerWeek + slot(at: time)]) / Double(Self.factorScale)
    }

    /// Whether the arc is closed at `time`.
    @inlinable
    public func isClosed(_ arc: Int, at time: Double) -> Bool {
        useLive && hasClosures && time < live.closure(arc)
    }

    /// The travel-time factor in force at `time` (constant within a 5-minute grid cell).
    @inlinable
    public func factor(_ arc: Int, at time: Double) -> Double {
        factor(arc, cellStart: (time / Self.gridSeconds).rounded(.down) * Self.gridSeconds)
    }

    @inlinable
    func factor(_ arc: Int, cellStart: Double) -> Double {
        let f = trafficFactor(arc, cellStart: cellStart)
        guard let speedCap else { return f }
        return max(f, speedCap.ms(arc) / Double(max(1, freeFlowMs[arc])))
    }

    /// The week slot of a grid cell that starts at `cellStart` (a whole number of seconds), in
    /// integer arithmetic: the same slot as `slot(at:)` without its floating-point divisions.
    @inlinable
    func slot(cellStart: Double) -> Int {
        let week = 7 * 86_400
        // 1970-01-01 was a Thursday: three days after a Monday (as `LocalWeek`).
        let local = (Int(cellStart) + utcOffsetSeconds + 3 * 86_400) % week
        return (local < 0 ? local + week : local) / 900
    }

    @inlinable
    func trafficFactor(_ arc: Int, cellStart: Double) -> Double {
        let historical = useHistorical
            ? Double(profileFactors[Int(profileOfArc[arc]) * Self.slotsPerWeek + slot(cellStart: cellStart)]) * (1 / Double(Self.factorScale))
            : 1
        guard useLive, lastLiveExpiry > cellStart, let (ms, expiry) = live.speed(arc), cellStart < expiry else { return historical }
        let live = Double(ms) / Double(max(1, freeFlowMs[arc]))
        let age = cellStart - referenceTime
        let weight: Double
        if age <= liveFullSeconds { weight = 1 } else if age >= liveFadeEndSeconds { weight = 0 } else {
            weight = 1 - (age - liveFullSeconds) / (liveFadeEndSeconds - liveFullSeconds)
        }
        return weight * live + (1 - weight) * historical
    }

    /// The factor of an arc that takes the same time whenever it is entered (no live speed, no
    /// speed cap, a flat profile), else nil: the time-grid walks need not run for it.
    @inlinable
    func constantFactor(_ arc: Int) -> Double? {
        guard speedCap == nil, !(useLive && live.hasSpeed(arc)) else { return nil }
        guard useHistorical else { return 1 }
        let p = Int(profileOfArc[arc])
        return flatProfiles[p] ? Double(profileFactors[p * Self.slotsPerWeek]) / Double(Self.factorScale) : nil
    }

    /// Milliseconds to traverse `fraction` of an arc entered at `entry` (seconds since 1970);
    /// infinity when the arc is closed at entry (unless `ignoringClosure`: a route that starts or
    /// ends on a closed road may still leave or reach its own point).
    @inlinable
    public func traverseMs(_ arc: Int, entry: Double, fraction: Double = 1, ignoringClosure: Bool = false) -> Double {
        if !ignoringClosure && isClosed(arc, at: entry) { return .infinity }
        let base = Double(freeFlowMs[arc]) * fraction
        if base <= 0 { return 0 }
        // What the walk below returns when no grid line changes the speed.
        if let f = constantFactor(arc) { return base * f / 1000 * 1000 }
        var cellStart = (entry / Self.gridSeconds).rounded(.down) * Self.gridSeconds
        var t = entry
        var remaining = 1.0  // share of `base` still to drive
        var elapsed = 0.0
        while true {
            let f = factor(arc, cellStart: cellStart)
            let cellEnd = cellStart + Self.gridSeconds
            let need = remaining * base * f / 1000  // seconds at this cell's speed
            if t + need <= cellEnd || elapsed > 7 * 86_400 {
                return (elapsed + need) * 1000
            }
            let spent = cellEnd - t
            remaining -= spent * 1000 / (base * f)
            elapsed += spent
            t = cellEnd
            cellStart = cellEnd
        }
    }

    /// The latest entry time that leaves `fraction` of the arc by `exit` (the exact inverse of
    /// `traverseMs`, walking the grid backwards); nil when closed.
    @inlinable
    public func latestEntry(_ arc: Int, exit: Double, fraction: Double = 1, ignoringClosure: Bool = false) -> Double? {
        let base = Double(freeFlowMs[arc]) * fraction
        if base <= 0 { return exit }
        if let f = constantFactor(arc) {
            let entry = exit - base * f / 1000
            return !ignoringClosure && isClosed(arc, at: entry) ? nil : entry
        }
        var t = exit
        var remaining = 1.0
        while true {
            // The cell containing the instant just before t.
            let cellStart = ((t - 1e-6) / Self.gridSeconds).rounded(.down) * Self.gridSeconds
            let f = factor(arc, at: cellStart)
            let need = remaining * base * f / 1000
            if t - need >= cellStart || exit - t > 7 * 86_400 {
                let entry = t - need
                return !ignoringClosure && isClosed(arc, at: entry) ? nil : entry
            }
            let spent = t - cellStart
            remaining -= spent * 1000 / (base * f)
            t = cellStart
        }
    }

    /// The smallest factor an arc can ever have (for lower-bound potentials).
    public func minimumFactor(_ arc: Int) -> Double {
        var m = 1.0
        if useHistorical {
            let p = Int(profileOfArc[arc])
            for s in 0..<Self.slotsPerWeek { m = min(m, Double(profileFactors[p * Self.slotsPerWeek + s]) / Double(Self.factorScale)) }
        }
        if useLive, let (ms, _) = live.speed(arc) { m = min(m, Double(ms) / Double(max(1, freeFlowMs[arc]))) }
        return m
    }
}
