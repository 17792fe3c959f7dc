import Foundation
import Testing
import MapsTestSupport
import WayfinderKit

/// Reachable range, isochrones and the timed matrix from a real server (Monaco imported in process).
@Suite("Reach against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .timeLimit(.minutes(2)))
struct ReachClientTests {
    let client: WayfinderClient

    init() async throws { client = try #require(await LoopbackMapsServer.shared(.monaco), "the Monaco server did not start").client }

    @Test func reachableRange() async throws {
        let small = try await client.reachableRange(ReachRequest(from: Monaco.monteCarlo, budget: .seconds(60)))
        let large = try await client.reachableRange(ReachRequest(from: Monaco.monteCarlo, budget: .seconds(240)))
        #expect(small.boundary.count >= 4 && large.boundary.count >= 4)
        #expect(small.center.distanceMeters(to: Monaco.monteCarlo) < 100)
        func area(_ ring: [Coordinate]) -> Double {
            zip(ring, ring.dropFirst() + ring.prefix(1)).reduce(0) { $0 + $1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude } / 2
        }
        #expect(area(large.boundary) > area(small.boundary))
        var walking = ReachRequest(from: Monaco.monteCarlo, budget: .meters(500))
        walking.travelMode = .pedestrian
        walking.timing = .arriveBy(Date().addingTimeInterval(3600))
        await #expect(throws: WayfinderError.self) { try await client.reachableRange(walking) }  // arriveBy needs a time budget
        walking.timing = .now
        #expect(try await client.reachableRange(walking).boundary.count >= 4)
    }

    @Test func isochronesAreNestedContours() async throws {
        var request = IsochroneRequest(from: Monaco.monteCarlo, contours: .minutes([1, 3]))
        request.timing = .departAt(Date().addingTimeInterval(1800))
        let contours = try await client.isochrones(request)
        #expect(contours.map(\.value) == [1, 3], "smallest first")
        #expect(contours.allSatisfy { !$0.polygons.isEmpty && $0.polygons[0][0].count >= 4 })
        let reverse = try await client.isochrones({ var r = IsochroneRequest(from: Monaco.monteCarlo, contours: .kilometers([1])); r.reverse = true; return r }())
        #expect(reverse.count == 1)
    }

    @Test func matrixAtADepartureTime() async throws {
        let leave = Date().addingTimeInterval(3600)
        let matrix = try await client.travelTimes(from: [Monaco.monteCarlo, Monaco.hermitage], to: [Monaco.fontvieille, Monaco.rocher],
                                                  timing: .departAt(leave))
        #expect(matrix.cells.count == 2 && matrix.cells.allSatisfy { $0.count == 2 })
        for cell in matrix.cells.joined() {
            let c = try #require(cell)
            #expect(c.travelTimeSeconds > 0 && c.lengthMeters > 100)
        }
        let arriving = try await client.travelTimes(from: [Monaco.monteCarlo], to: [Monaco.fontvieille], timing: .arriveBy(leave))
        #expect(arriving.cells[0][0] != nil)
    }
}
