import Foundation
import Testing
import MapsTestSupport
import RoadNetwork
@testable import RoutePlanning

/// A snapshot's arc times "now" are worked out in chunks over the cores: whatever the split, each
/// arc must get exactly the time of its own walk through the table (live, profiles, closures).
@Suite("Arc times now") struct ArcTimesTests {
    static let scenario = try! Scenario("""
        a - b - c - d
        |   |   |   |
        e - f - g - h
        |   |   |   |
        i - j - k - l
        """, gridMeters: 150, ways: ["abcd": ["highway": "primary"], "efgh": ["highway": "residential"],
                                     "ijkl": ["highway": "secondary", "oneway": "yes"], "aei": ["highway": "tertiary"],
                                     "bfj": ["highway": "residential"], "cgk": ["highway": "residential"],
                                     "dhl": ["highway": "primary"]])

    @Test(arguments: [1, 2, 3, 7, 1000])
    func everySplitGivesEachArcItsOwnTime(chunks: Int) throws {
        let graph = try #require(Self.scenario.graphs[.car])
        let now = Scenario.quietHour.timeIntervalSince1970
        var closures = 0
        for seed in UInt64(1)...4 {
            let table = ReferenceTimeDependent.randomTable(graph, seed: seed, referenceTime: now)
            for at in [now, now + 299, now + 1800, now + 4000] {
                let expected = (0..<graph.arcCount).map { a -> UInt32 in
                    let ms = table.traverseMs(a, entry: at)
                    return ms.isFinite ? UInt32(min(Double(UInt32.max - 1), max(1, ms.rounded()))) : UInt32.max
                }
                closures += expected.filter { $0 == UInt32.max }.count
                #expect(TrafficSnapshot.arcTimes(table, graph: graph, at: at, chunks: chunks) == expected)
            }
        }
        #expect(closures > 0, "the tables close some arcs")
    }
}
