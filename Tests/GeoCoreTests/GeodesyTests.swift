import Testing
import GeoCore

@Suite struct GeodesyTests {
    @Test func helsinkiToTallinnDistance() {
        let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)
        let tallinn = Coordinate(latitude: 59.4370, longitude: 24.7536)
        let d = Geodesy.distanceMeters(helsinki, tallinn)
        #expect(abs(d - 82_000) < 1_500)
    }

    @Test func bearingsPointTheRightWay() {
        let a = Coordinate(latitude: 60, longitude: 25)
        #expect(abs(Geodesy.bearingDegrees(from: a, to: Coordinate(latitude: 61, longitude: 25)) - 0) < 0.01)
        #expect(abs(Geodesy.bearingDegrees(from: a, to: Coordinate(latitude: 60, longitude: 26)) - 89.57) < 0.1)
        #expect(abs(Geodesy.bearingDegrees(from: a, to: Coordinate(latitude: 59, longitude: 25)) - 180) < 0.01)
    }

    @Test func turnAngleIsSignedAndWrapped() {
        #expect(Geodesy.turnAngle(from: 350, to: 10) == 20)
        #expect(Geodesy.turnAngle(from: 10, to: 350) == -20)
        #expect(Geodesy.turnAngle(from: 0, to: 180) == 180)
    }

    @Test func projectionClampsToTheSegment() {
        let a = Coordinate(latitude: 60, longitude: 24), b = Coordinate(latitude: 60, longitude: 24.01)
        let mid = Geodesy.project(Coordinate(latitude: 60.001, longitude: 24.005), ontoSegment: a, b)
        #expect(abs(mid.fraction - 0.5) < 1e-6)
        #expect(mid.point.latitudeE7 == 600_000_000)
        let before = Geodesy.project(Coordinate(latitude: 60, longitude: 23.9), ontoSegment: a, b)
        #expect(before.fraction == 0)
    }

    @Test func coordinateParsingRejectsOutOfRange() {
        #expect(Coordinate(parsing: "60.17, 24.94") == Coordinate(latitude: 60.17, longitude: 24.94))
        #expect(Coordinate(parsing: "91,0") == nil)
        #expect(Coordinate(parsing: "nan,0") == nil)
        #expect(Coordinate(parsing: "60.1") == nil)
        #expect(Coordinate(parsing: "1e308,5") == nil)
    }

    // A 50 km box around the south pole's corner once computed a longitude of -225° and trapped
    // converting it to fixed point (found by the HTTP contract test: nearbySearch at lat=-90&lon=-180).
    @Test func expandedBoxStaysWithinTheGlobe() {
        let corner = Coordinate(latitude: -90, longitude: -180)
        let box = BoundingBox(minLatitudeE7: corner.latitudeE7, minLongitudeE7: corner.longitudeE7,
                              maxLatitudeE7: corner.latitudeE7, maxLongitudeE7: corner.longitudeE7).expanded(byMeters: 50_000)
        #expect(box.southWest == Coordinate(latitude: -90, longitude: -180))
        #expect(box.northEast.latitude > -90 && box.northEast.longitude > -180 && box.northEast.longitude <= 180)
        let helsinki = BoundingBox(south: 60.1, west: 24.9, north: 60.2, east: 25.0).expanded(byMeters: 1_000)
        #expect(abs(helsinki.southWest.latitude - (60.1 - 1_000 / Geodesy.metersPerDegreeLatitude)) < 1e-6)
    }

    @Test func formattingKeepsDecimals() {
        #expect(Coordinate.format(-0.5, 3) == "-0.500")
        #expect(Coordinate.format(24.93841, 5) == "24.93841")
        #expect(Coordinate(latitude: 60.1, longitude: -8.25).formatted(decimals: 2) == "60.10,-8.25")
    }
}

@Suite struct PolylineCodecTests {
    // Google's documented example.
    @Test func encodesTheReferenceExample() {
        let points = [Coordinate(latitude: 38.5, longitude: -120.2), Coordinate(latitude: 40.7, longitude: -120.95),
                      Coordinate(latitude: 43.252, longitude: -126.453)]
        #expect(PolylineCodec.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(PolylineCodec.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@") == points)
    }

    @Test func precisionSixRoundTrips() {
        let points = [Coordinate(latitude: 60.169912, longitude: 24.938412), Coordinate(latitude: 60.17, longitude: 24.9)]
        let text = PolylineCodec.encode(points, precision: 6)
        #expect(PolylineCodec.decode(text, precision: 6) == points)
    }

    @Test func garbageIsRejected() {
        #expect(PolylineCodec.decode("\u{1}\u{2}") == nil)
        #expect(PolylineCodec.decode("_p~iF") == nil)
    }
}

@Suite struct TileTests {
    @Test func tileBoundsContainTheirCentre() throws {
        let tile = try #require(TileID(zoom: 15, x: 18654, y: 9483))
        let center = tile.bounds.center
        let p = WebMercator.pixel(center, zoom: 15)
        #expect(Int(p.x / 256) == 18654)
        #expect(Int(p.y / 256) == 9483)
        #expect(TileID(zoom: 3, x: 8, y: 0) == nil)
        #expect(TileID(zoom: 30, x: 0, y: 0) == nil)
    }

    @Test func aLocalWeekStartsOnMondayMidnight() {
        let monday = 1_795_996_800.0  // 2026-11-30T00:00:00Z, a Monday
        #expect(LocalWeek.position(monday, utcOffsetSeconds: 0).secondsIntoWeek == 0)
        #expect(LocalWeek.position(monday - 1, utcOffsetSeconds: 0).secondsIntoWeek == LocalWeek.seconds - 1)
        // 23:30 UTC on the Sunday before is 00:30 on Monday at UTC+1
        #expect(LocalWeek.position(monday - 1_800, utcOffsetSeconds: 3_600).secondsIntoWeek == 1_800)
        let (into, week) = LocalWeek.position(monday + 3 * 86_400 + 0.75, utcOffsetSeconds: 0)
        #expect(into == 3 * 86_400)
        #expect(week == LocalWeek.position(monday, utcOffsetSeconds: 0).week)
        #expect(week == LocalWeek.position(monday - 1, utcOffsetSeconds: 0).week + 1)
    }

    @Test func distanceToALine() {
        let a = Coordinate(latitude: 60, longitude: 25), b = Coordinate(latitude: 60, longitude: 25.01)
        let above = Coordinate(latitude: 60.001, longitude: 25.005)
        #expect(abs(Geodesy.distanceMeters(above, toLine: [a, b]) - 111.3) < 1)
        #expect(Geodesy.distanceMeters(above, toLine: [a]) == Geodesy.distanceMeters(above, a))
        #expect(Geodesy.distanceMeters(above, toLine: []) == .infinity)
    }
}
