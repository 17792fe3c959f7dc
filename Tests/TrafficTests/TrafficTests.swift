import Foundation
import Testing
import GeoCore
import MapsTestSupport
import RoadNetwork
import Traffic

/// OSRM's segment speed files, read strictly: a bad line is refused with its number.
@Suite("Segment speed CSV") struct SegmentSpeedCSVTests {
    @Test func speedsAndClosuresAreRead() throws {
        let speeds = try SegmentSpeedCSV.parseSpeeds(Array("1,2,30\n2,1,12.5\r\n\n3,4,0\n".utf8), source: "t")
        #expect(speeds.map(\.from) == [1, 2, 3] && speeds.map(\.to) == [2, 1, 4])
        #expect(speeds.map(\.speedKmh) == [30, 12.5, 0])
        let closures = try SegmentSpeedCSV.parseClosures(Array("5,6\n6,5\n".utf8), source: "t")
        #expect(closures.map(\.from) == [5, 6] && closures.allSatisfy { $0.speedKmh == nil })
    }

    @Test("a bad line is an error naming it", arguments: ["1,2,fast\n", "1,2\n", "1,2,301\n", "a,2,30\n", "1,2,-1\n", "1,2,nan\n", "1,2,30,7,8\n"])
    func badLines(_ text: String) {
        #expect { try SegmentSpeedCSV.parseSpeeds(Array(("1,2,30\n" + text).utf8), source: "up.csv") } throws: { "\($0)".contains("line 2") }
    }
}

/// Live updates matched to the graph through the OSM node pairs of its segments.
@Suite("Traffic model") struct TrafficModelTests {
    //  a - - - b - - - c     primary, 400 m + 400 m
    static let scenario = try! Scenario("a - - - b - - - c", ways: ["ab": ["highway": "primary"], "bc": ["highway": "primary"]])
    var graph: RoadGraph { Self.scenario.graphs[.car]! }
    let zone = TimeZone(identifier: "Europe/Helsinki")!
    let now = 1_796_000_400.0

    func update(_ kind: LiveUpdate.Kind, _ lines: String, id: String = "u1", createdAt: Double? = nil) throws -> LiveUpdate {
        let bytes = Array(lines.utf8)
        let entries = kind == .speeds ? try SegmentSpeedCSV.parseSpeeds(bytes, source: "t") : try SegmentSpeedCSV.parseClosures(bytes, source: "t")
        return LiveUpdate(id: id, kind: kind, createdAt: createdAt ?? now, expiresAt: now + 3600, source: "t", entries: entries)
    }

    func arc(_ from: Character, _ to: Character) -> Int {
        let s = Self.scenario
        return graph.segmentKeys.arcs(from: s.osmID(from), to: s.osmID(to)).first!.index
    }

    @Test func aSpeedOnASegmentIsItsArcsLiveTime() throws {
        let s = Self.scenario
        let model = TrafficModel(graph: graph, timeZone: zone)
        let u = try update(.speeds, "\(s.osmID("a")),\(s.osmID("b")),20\n99,98,20\n")
        let (table, report) = model.table(referenceTime: Date(timeIntervalSince1970: now), updates: [u])
        #expect(report.matchedSegments == 1 && report.unmatchedSegments == 1)
        #expect(model.matchedLines(of: u) == 1)
        let ab = arc("a", "b")
        // 400 m at 20 km/h.
        let expected: Double = 400 / (20 / 3.6)
        #expect(abs(Double(table.liveMs(ab)) / 1000 - expected) < 0.5)
        #expect(table.liveMs(arc("b", "a")) == 0)
        #expect(abs(table.traverseMs(ab, entry: now) / 1000 - 72) < 0.5)
    }

    @Test func theNewestUpdateWinsAndAZeroOrAClosureCloses() throws {
        let s = Self.scenario
        let model = TrafficModel(graph: graph, timeZone: zone)
        let (a, b, c) = (s.osmID("a"), s.osmID("b"), s.osmID("c"))
        let old = try update(.speeds, "\(a),\(b),20\n", id: "u1", createdAt: now - 60)
        let new = try update(.speeds, "\(a),\(b),40\n\(b),\(c),0\n", id: "u2")
        let closure = try update(.closures, "\(c),\(b)\n", id: "u3")
        let (table, _) = model.table(referenceTime: Date(timeIntervalSince1970: now), updates: [old, new, closure])
        let expected: Double = 400 / (40 / 3.6)
        #expect(abs(Double(table.liveMs(arc("a", "b"))) / 1000 - expected) < 0.5)
        #expect(table.isClosed(arc("b", "c"), at: now))
        #expect(table.isClosed(arc("c", "b"), at: now))
        #expect(!table.isClosed(arc("b", "c"), at: now + 3601))
    }

    @Test func perSegmentHistoricalSpeedsMakeTheirOwnProfile() throws {
        let s = Self.scenario
        let slow = (0..<24).map { $0 == 8 ? "10" : "65" }.joined(separator: ",")
        let rows = try SegmentSpeedCSV.parseProfiles(Array("\(s.osmID("a")),\(s.osmID("b")),\(slow)\n".utf8), source: "h")
        let model = TrafficModel(graph: graph, timeZone: zone, historical: rows)
        let (table, _) = model.table(referenceTime: Date(timeIntervalSince1970: now), updates: [])
        let ab = arc("a", "b"), bc = arc("b", "c")
        #expect(table.profileOfArc[ab] != table.profileOfArc[bc])
        // Monday 08:30 local (06:30 UTC): 10 km/h on ab.
        let rush = now + 5.5 * 3600
        let expected: Double = 400 / (10 / 3.6)
        #expect(abs(table.traverseMs(ab, entry: rush) / 1000 - expected) < 2)
        #expect(table.traverseMs(bc, entry: rush) < table.traverseMs(ab, entry: rush) / 3)
    }
}

/// Updates live in `state/traffic/live` as files every replica reads; expired ones go.
@Suite("Traffic store") struct TrafficStoreTests {
    @Test func savedUpdatesAreInForceUntilTheyExpire() throws {
        let store = TrafficStore(stateFolder: Fixtures.temporaryDirectory("wayfinder-traffic").path)
        let before = store.fingerprint()
        let u = LiveUpdate(id: TrafficStore.makeID(createdAt: 100), kind: .speeds, createdAt: 100, expiresAt: 200, source: "t",
                           entries: try SegmentSpeedCSV.parseSpeeds(Array("1,2,30\n".utf8), source: "t"))
        try store.save(u)
        #expect(store.fingerprint() != before)
        #expect(store.activeUpdates(now: 150) == [u])
        #expect(store.activeUpdates(now: 250).isEmpty)
        #expect(store.activeUpdates(now: 150).isEmpty)  // the expired file was removed
        try store.save(u)
        store.clearLive()
        #expect(store.activeUpdates(now: 150).isEmpty)
    }
}
