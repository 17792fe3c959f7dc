import Foundation
import Testing
import MapsTestSupport
import OSMPBF

/// `Tests/Fixtures/drawn-town.osm.pbf` is `DrawnTown` written by `PBFWriter`: the committed file
/// must be exactly what the drawing gives today (the writer is deterministic), so a change to the
/// drawing or the writer shows here. `WAYFINDER_WRITE_FIXTURES=1 swift test --filter DrawnTown`
/// rewrites it.
@Suite("The drawn town fixture") struct DrawnTownFixtureTests {
    @Test func theCommittedFileIsTheDrawing() throws {
        let fresh = Fixtures.temporaryDirectory("wayfinder-fixture").appendingPathComponent("town.osm.pbf").path
        try DrawnTown.write(to: fresh)
        if ProcessInfo.processInfo.environment["WAYFINDER_WRITE_FIXTURES"] == "1" {
            try? FileManager.default.removeItem(atPath: DrawnTown.fixturePath)
            try FileManager.default.copyItem(atPath: fresh, toPath: DrawnTown.fixturePath)
        }
        let committed = try Data(contentsOf: URL(fileURLWithPath: DrawnTown.fixturePath))
        #expect(committed == (try Data(contentsOf: URL(fileURLWithPath: fresh))), "regenerate with WAYFINDER_WRITE_FIXTURES=1")
    }

    @Test func itReadsBack() throws {
        let reader = try PBFReader(path: DrawnTown.fixturePath)
        var nodes = 0, ways = 0, names: Set<String> = []
        try reader.forEachBlock { block in
            nodes += block.nodeCount
            ways += block.wayCount
            for i in 0..<block.wayCount { if let n = block.wayTags(i)["name"] { names.insert(n) } }
        }
        #expect(nodes == 20)
        #expect(ways == 7)
        #expect(names.contains("Mannerheimintie") && names.contains("Keskuskatu"))
    }
}
