import Testing
import GeoCore
import MapsTestSupport
import RoadNetwork

/// How long an arc takes at any moment: free flow × a weekly factor, blended with live speeds
/// that fade into history, closures in between — FIFO, with an exact inverse for arrive-by.
@Suite("Travel-time table") struct TravelTimeTableTests {
    static let scenario = try! Scenario("a - - - - - - - - b", ways: ["ab": ["highway": "primary"]])
    var graph: RoadGraph { Self.scenario.graphs[.car]! }

    /// A table whose one profile changes every slot (seeded), with optional live data on arc 0.
    func table(seed: UInt64, liveMs: UInt32 = 0, closedUntil: Double = 0, reference: Double = 1_796_000_400) -> TravelTimeTable {
        var rng = SplitMix64(seed: seed)
        let factors = (0..<TravelTimeTable.slotsPerWeek).map { _ in UInt16(1024 + rng.below(1500)) }
        let n = graph.arcCount
        var live = [UInt32](repeating: 0, count: n), closed = [Double](repeating: 0, count: n)
        live[0] = liveMs
        closed[0] = closedUntil
        return TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: [UInt16](repeating: 0, count: n), profileFactors: factors,
                               liveMs: live, liveExpiry: [Double](repeating: reference + 7200, count: n), closedUntil: closed,
                               referenceTime: reference, utcOffsetSeconds: 7200)
    }

    /// With several profiles, each arc reads its own profile's factor for the slot in force (the
    /// table keeps the factors slot by slot for the searches: this is what that copy must keep).
    @Test func eachArcReadsItsOwnProfilesSlot() {
        var rng = SplitMix64(seed: 5)
        let profiles = 7, n = graph.arcCount
        let factors = (0..<(profiles * TravelTimeTable.slotsPerWeek)).map { _ in UInt16(1024 + rng.below(1500)) }
        let profileOfArc = (0..<n).map { UInt16($0 % profiles) }
        let t = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: profileOfArc, profileFactors: factors,
                                live: .empty(arcCount: n), referenceTime: 0, utcOffsetSeconds: 3600)
        for _ in 0..<500 {
            let arc = rng.below(n), time = 1_796_000_400 + rng.uniform(0, 7 * 86_400)
            let expected = Double(factors[Int(profileOfArc[arc]) * TravelTimeTable.slotsPerWeek + t.slot(at: time)]) / 1024
            #expect(t.historicalFactor(arc, at: time) == expected)
            #expect(t.factor(arc, at: time) == expected)
        }
    }

    @Test func freeFlowIsTheArcsOwnTime() {
        let t = TravelTimeTable.freeFlow(graph)
        let free = Double(graph.arcDurationMs[0])
        #expect(abs(t.traverseMs(0, entry: 1_796_000_400) - free) < 1e-6)
        #expect(abs(t.traverseMs(0, entry: 1_796_000_400, fraction: 0.25) - free / 4) < 1e-6)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func leavingLaterNeverArrivesEarlierAndTheInverseIsExact(seed: UInt64) {
        let t = table(seed: seed)
        var rng = SplitMix64(seed: seed &+ 11)
        var checked = 0
        for _ in 0..<300 {
            let entry = 1_796_000_400 + rng.uniform(0, 7 * 86_400)
            let exit = entry + t.traverseMs(0, entry: entry) / 1000
            let later = entry + rng.uniform(0, 900)
            #expect(later + t.traverseMs(0, entry: later) / 1000 >= exit - 1e-6)
            let back = t.latestEntry(0, exit: exit)
            #expect(back.map { abs($0 - entry) < 1e-3 } == true, "entry \(entry) exit \(exit) back \(String(describing: back))")
            checked += 1
        }
        #expect(checked == 300)
    }

    @Test func liveSpeedsCountFullyThenFadeIntoHistory() {
        let reference = 1_796_000_400.0
        let free = Double(graph.arcDurationMs[0])
        let t = table(seed: 4, liveMs: UInt32(free * 3), reference: reference)
        #expect(abs(t.factor(0, at: reference) - 3) < 1e-9)
        #expect(abs(t.factor(0, at: reference + 300) - 3) < 1e-9)
        let historical = t.historicalFactor(0, at: reference + 4000)
        #expect(abs(t.factor(0, at: reference + 4000) - historical) < 1e-9)
        let middle = t.factor(0, at: reference + 2100)
        #expect(middle < 3 && middle > t.historicalFactor(0, at: reference + 2100))
        var noLive = t
        noLive.useLive = false
        #expect(abs(noLive.factor(0, at: reference) - noLive.historicalFactor(0, at: reference)) < 1e-9)
    }

    @Test func aClosedArcCannotBeEnteredUntilTheClosureEnds() {
        let reference = 1_796_000_400.0
        let t = table(seed: 5, closedUntil: reference + 600, reference: reference)
        #expect(t.isClosed(0, at: reference + 10))
        #expect(t.traverseMs(0, entry: reference + 10) == .infinity)
        #expect(t.traverseMs(0, entry: reference + 10, ignoringClosure: true).isFinite)
        #expect(t.traverseMs(0, entry: reference + 601).isFinite)
        #expect(!t.isClosed(1, at: reference + 10))
    }

    /// The factor in force is the profile's at the week slot `LocalWeek` gives, for any offset from
    /// UTC (whole, half and three-quarter hours, east and west) and times before 1970 too.
    @Test(arguments: [7200, -18_000, 19_800, 20_700, -34_200] as [Int])
    func theFactorIsTheProfilesAtTheLocalSlot(offset: Int) {
        let base = table(seed: 9)
        let t = TravelTimeTable(freeFlowMs: base.freeFlowMs, profileOfArc: base.profileOfArc, profileFactors: base.profileFactors,
                                live: .empty(arcCount: graph.arcCount), referenceTime: 0, utcOffsetSeconds: offset)
        var rng = SplitMix64(seed: UInt64(offset + 100_000))
        for _ in 0..<2000 {
            let time = rng.uniform(-10 * 86_400, 1_900_000_000)
            let cell = (time / TravelTimeTable.gridSeconds).rounded(.down) * TravelTimeTable.gridSeconds
            let slot = Int(LocalWeek.position(cell, utcOffsetSeconds: offset).secondsIntoWeek / 900)
            #expect(t.factor(0, at: time) == Double(t.profileFactors[slot]) / Double(TravelTimeTable.factorScale), "at \(time)")
        }
    }

    /// A profile with one factor all week: its arcs take the same time whenever they are entered
    /// (the searches' shortcut past the grid walk), unless live data or a speed cap apply.
    @Test func aFlatProfileTakesTheSameTimeAllWeekUnlessLiveOrCapped() {
        let reference = 1_796_000_400.0
        let n = graph.arcCount
        var live = [UInt32](repeating: 0, count: n)
        live[0] = graph.arcDurationMs[0] * 3
        let flat = TravelTimeTable(freeFlowMs: graph.arcDurationMs, profileOfArc: [UInt16](repeating: 0, count: n),
                                   profileFactors: [UInt16](repeating: 1536, count: TravelTimeTable.slotsPerWeek),
                                   liveMs: live, liveExpiry: [Double](repeating: reference + 7200, count: n),
                                   closedUntil: [Double](repeating: 0, count: n), referenceTime: reference, utcOffsetSeconds: 7200)
        var rng = SplitMix64(seed: 9)
        let free = Double(graph.arcDurationMs[1])
        for _ in 0..<100 {
            let entry = reference + rng.uniform(0, 7 * 86_400)
            #expect(abs(flat.traverseMs(1, entry: entry) - free * 1.5) < 1e-6)
            #expect(abs(flat.traverseMs(1, entry: entry, fraction: 0.4) - free * 0.6) < 1e-6)
            #expect(flat.latestEntry(1, exit: entry).map { abs($0 - (entry - free * 1.5 / 1000)) < 1e-9 } == true)
        }
        // Arc 0's live time counts in full at first, then fades into the flat profile.
        #expect(abs(flat.traverseMs(0, entry: reference) - Double(graph.arcDurationMs[0]) * 3) < 1e-6)
        #expect(abs(flat.traverseMs(0, entry: reference + 5000) - Double(graph.arcDurationMs[0]) * 1.5) < 1e-6)
        // A top speed below the road's: the cap decides.
        let capped = flat.capped(TravelTimeTable.SpeedCap(graph, kmh: 5))
        let atCap = Double(graph.lengthCm(of: ArcID(1))) * 36 / 5
        #expect(atCap > free * 1.5)
        #expect(abs(capped.traverseMs(1, entry: reference + 100) - atCap) < 1e-3)
        // A profile that changes over the week still changes the time.
        let varying = table(seed: 6)
        let times = Set((0..<20).map { varying.traverseMs(1, entry: reference + Double($0) * 3600).rounded() })
        #expect(times.count > 1)
    }
}
