import Testing
@testable import GeoCore

@Suite struct ContourGridTests {
    /// A field that is low inside a square and high elsewhere, with an unreachable pond in the middle.
    static func field() -> ContourGrid {
        var grid = ContourGrid(width: 20, height: 20, spacing: 10, origin: PlanarPoint(x: 0, y: 0), fill: 100)
        for y in 3..<17 { for x in 3..<17 { grid.values[y * 20 + x] = Float(abs(x - 10) + abs(y - 10)) } }
        for y in 9...11 { for x in 9...11 { grid.values[y * 20 + x] = 100 } }
        return grid
    }

    @Test func squareWithAHole() {
        let polygons = Self.field().polygons(level: 50, outside: 100)
        #expect(polygons.count == 1)
        let p = polygons[0]
        #expect(ContourGrid.signedArea(p.outer) > 0, "outer rings run counter-clockwise")
        #expect(p.holes.count == 1, "the pond is a hole")
        #expect(ContourGrid.signedArea(p.holes[0]) < 0, "holes run clockwise")
        #expect(ContourGrid.contains(p.outer, PlanarPoint(x: 50, y: 50)))
        #expect(!ContourGrid.contains(p.outer, PlanarPoint(x: 5, y: 5)))
        #expect(ContourGrid.contains(p.holes[0], PlanarPoint(x: 100, y: 100)))
    }

    @Test func levelsAreNested() {
        let grid = Self.field()
        let small = grid.polygons(level: 3, outside: 100), large = grid.polygons(level: 8, outside: 100)
        #expect(!small.isEmpty && !large.isEmpty)
        let smallArea = small.map { ContourGrid.signedArea($0.outer) }.reduce(0, +)
        let largeArea = large.map { ContourGrid.signedArea($0.outer) }.reduce(0, +)
        #expect(smallArea < largeArea)
        for polygon in small { for point in polygon.outer { #expect(large.contains { ContourGrid.contains($0.outer, point) }) } }
    }

    @Test func separateIslandsAreSeparatePolygons() {
        var grid = ContourGrid(width: 12, height: 6, spacing: 1, origin: PlanarPoint(x: 0, y: 0), fill: 10)
        for y in 1...3 { for x in 1...3 { grid.values[y * 12 + x] = 0 }; for x in 7...9 { grid.values[y * 12 + x] = 0 } }
        #expect(grid.polygons(level: 1, outside: 10).count == 2)
    }

    @Test func simplifyKeepsCorners() {
        var ring: [PlanarPoint] = []
        for i in 0..<10 { ring.append(PlanarPoint(x: Double(i), y: 0)) }
        for i in 0..<10 { ring.append(PlanarPoint(x: 10, y: Double(i))) }
        for i in 0..<10 { ring.append(PlanarPoint(x: 10 - Double(i), y: 10)) }
        for i in 0..<10 { ring.append(PlanarPoint(x: 0, y: 10 - Double(i))) }
        let simplified = ContourGrid.simplify(ring, tolerance: 0.5)
        #expect(simplified.count == 4)
        #expect(abs(ContourGrid.signedArea(simplified) - 100) < 1e-9)
    }

    /// Holes go to the smallest outer ring that contains them, on rings large enough for the banded
    /// point-in-ring test, which must answer as the plain walk does.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func holesFindTheirRingOnLargeRings(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let n = 80
        var grid = ContourGrid(width: n, height: n, spacing: 10, origin: PlanarPoint(x: -400, y: -400), fill: 100)
        for y in 0..<n {
            for x in 0..<n {
                // A noisy diamond with unreachable specks in it: the specks are the holes.
                grid.values[y * n + x] = rng.next() % 9 == 0 ? 100 : Float(abs(x - n / 2) + abs(y - n / 2)) + Float(rng.next() % 8)
            }
        }
        let polygons = grid.polygons(level: 30, outside: 100)
        var holes = 0
        for p in polygons {
            for hole in p.holes {
                holes += 1
                #expect(ContourGrid.contains(p.outer, hole[0]), "seed \(seed)")
                let area = ContourGrid.signedArea(p.outer)
                #expect(!polygons.contains { ContourGrid.signedArea($0.outer) < area && ContourGrid.contains($0.outer, hole[0]) }, "seed \(seed): a smaller ring holds it")
            }
        }
        let large = polygons.map(\.outer).filter { $0.count >= ContourGrid.RingBands.smallestRing }
        #expect(holes > 5 && !large.isEmpty, "seed \(seed): \(holes) holes, \(large.count) large rings")
        for ring in large {
            let bands = ContourGrid.RingBands(ring, bandHeight: 10)
            for _ in 0..<500 {
                let p = PlanarPoint(x: rng.uniform(-420, 420), y: rng.uniform(-420, 420))
                #expect(bands.contains(p) == ContourGrid.contains(ring, p), "seed \(seed) at \(p)")
            }
        }
    }
}
