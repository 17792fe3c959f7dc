import Foundation
import Testing
import MapsTestSupport
import MapMatching
import MapsService
import MapsAPI
import RoadNetwork
import RoutePlanning
import GeoCore

@Suite("Probe speeds") struct ProbeTests {
    // A long road a–b–c–d and a parallel way round e–f for routes to take instead.
    static let drawing = """
        a . . b . . c . . d
        e . . . . . . . . f
        """
    static func scenario() throws -> Scenario {
        try Scenario(Self.drawing, gridMeters: 100, ways: ["ab": ["highway": "secondary"], "bc": ["highway": "secondary"], "cd": ["highway": "secondary"],
                                                            "ae": ["highway": "residential"], "ef": ["highway": "residential"], "fd": ["highway": "residential"]])
    }

    /// A vehicle driving a→d at `kmh`, one fix every 5 s, waiting `stop` seconds at c, as GeoJSON.
    static func vehicle(_ s: Scenario, id: String, kmh: Double, start: Double, stop: Double = 0) -> [String: Any] {
        let a = s.coordinate("a"), d = s.coordinate("d"), c = s.coordinate("c")
        let length = Geodesy.distanceMeters(a, d), atC = Geodesy.distanceMeters(a, c)
        var coordinates: [[Double]] = [], times: [Double] = []
        var t = 0.0
        while true {
            var along = t * kmh / 3.6
            if along > atC { along = max(atC, along - stop * kmh / 3.6) }
            if along > length { break }
            let p = Geodesy.interpolate(a, d, along / length)
            coordinates.append([p.longitude, p.latitude]); times.append(start + t)
            t += 5
        }
        return ["type": "Feature", "properties": ["vehicle": id, "times": times], "geometry": ["type": "LineString", "coordinates": coordinates]]
    }

    static func body(_ features: [[String: Any]]) throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]))
    }

    @Test func speedsNeedSeveralVehiclesAndGoLive() throws {
        let s = try Self.scenario()
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_600))
        let service = try s.service(clock: clock, profiles: [.car])
        let t0 = 1_800_000_000.0
        // One vehicle: traversals measured, but no speed.
        let one = try service.ingestProbes(try Self.body([Self.vehicle(s, id: "v1", kmh: 15, start: t0)]), expiresInSeconds: 900)
        #expect(one.traversals > 0)
        #expect(one.speeds.isEmpty)
        #expect(one.update == nil)
        // The same vehicle again (its positions already seen) adds nothing.
        let again = try service.ingestProbes(try Self.body([Self.vehicle(s, id: "v1", kmh: 15, start: t0)]), expiresInSeconds: 900)
        #expect(again.speeds.isEmpty)
        #expect((again.dropped["olderThanLastSeen"] ?? 0) == again.points)
        // Two more, one of which waits 40 s at the signal at c: speeds from three vehicles.
        let more = try service.ingestProbes(try Self.body([Self.vehicle(s, id: "v2", kmh: 15, start: t0 + 20),
                                                           Self.vehicle(s, id: "v3", kmh: 15, start: t0 + 40, stop: 40)]), expiresInSeconds: 900)
        let speeds = more.speeds.map(\.speedKmh)
        #expect(!speeds.isEmpty)
        #expect(more.speeds.allSatisfy { $0.vehicles >= 3 })
        #expect(speeds.allSatisfy { abs($0 - 15) / 15 < 0.2 }, "speeds \(speeds)")
        #expect(more.update != nil)
        // Routes now go round: the probed road reads 15 km/h.
        let route = try service.calculateRoute(RouteQuery(waypoints: [s.coordinate("a"), s.coordinate("d")], mode: .car))
        let seconds = try #require(route.routes.first?.summary.travelTimeInSeconds)
        #expect(Double(seconds) > 300 / (15 / 3.6) * 0.8 || route.routes.first?.summary.lengthInMeters ?? 0 > 400)
        #expect(service.trafficStatus().updates.filter { $0.source == "probes" }.count == 1)
    }

    /// A vehicle driving `stops` in order, each stretch at its own speed, one fix every 5 s.
    static func vehicle(_ s: Scenario, id: String, start: Double, along stretches: [(from: Coordinate, to: Coordinate, kmh: Double)]) -> [String: Any] {
        var coordinates: [[Double]] = [], times: [Double] = []
        var t = 0.0, elapsed = 0.0
        for stretch in stretches {
            let length = Geodesy.distanceMeters(stretch.from, stretch.to), seconds = length / (stretch.kmh / 3.6)
            while t <= elapsed + seconds {
                let p = Geodesy.interpolate(stretch.from, stretch.to, (t - elapsed) / seconds)
                coordinates.append([p.longitude, p.latitude]); times.append(start + t)
                t += 5
            }
            elapsed += seconds
        }
        if let end = stretches.last?.to, elapsed > t - 5 {
            coordinates.append([end.longitude, end.latitude]); times.append(start + elapsed)
        }
        return ["type": "Feature", "properties": ["vehicle": id, "times": times], "geometry": ["type": "LineString", "coordinates": coordinates]]
    }

    /// One way a–b–c–d is one arc (b and c are no junctions); a jam on b–c alone is learned there,
    /// and a vehicle that joined the road between a and b counts for the pieces it drove whole.
    @Test func aJamOnPartOfAnArcIsLearnedWhereItIs() throws {
        let s = try Scenario(Self.drawing, gridMeters: 100, ways: ["abcd": ["highway": "secondary"], "ae": ["highway": "residential"],
                                                                   "ef": ["highway": "residential"], "fd": ["highway": "residential"]])
        let graph = try #require(s.graphs[.car])
        #expect(graph.arcCount <= 8, "a–b–c–d should be one edge")
        let service = try s.service(clock: TestClock(Date(timeIntervalSince1970: 1_800_000_900)), profiles: [.car])
        let a = s.coordinate("a"), b = s.coordinate("b"), c = s.coordinate("c"), d = s.coordinate("d")
        let t0 = 1_800_000_000.0
        let whole = [(a, b, 40.0), (b, c, 6.0), (c, d, 40.0)]
        let joined = Geodesy.interpolate(a, b, 0.5)
        let report = try service.ingestProbes(try Self.body([
            Self.vehicle(s, id: "v1", start: t0, along: whole.map { ($0.0, $0.1, $0.2) }),
            Self.vehicle(s, id: "v2", start: t0 + 30, along: whole.map { ($0.0, $0.1, $0.2) }),
            Self.vehicle(s, id: "v3", start: t0 + 60, along: [(joined, b, 40), (b, c, 6), (c, d, 40)]),
        ]), expiresInSeconds: 900)
        func speed(_ x: Character, _ y: Character) -> Double? {
            report.speeds.first { $0.from == s.osmID(x) && $0.to == s.osmID(y) }?.speedKmh
        }
        let jam = try #require(speed("b", "c"), "speeds \(report.speeds)")
        #expect(abs(jam - 6) / 6 < 0.2, "b–c \(jam) km/h")
        let after = try #require(speed("c", "d"))
        #expect(abs(after - 40) / 40 < 0.2, "c–d \(after) km/h")
        // Only two vehicles drove a–b whole: no speed there.
        #expect(speed("a", "b") == nil)
    }

    @Test func floodingVehicleIsRateLimited() throws {
        let estimator = ProbeSpeedEstimator()
        let c = Coordinate(latitude: 60, longitude: 24)
        let points = (0..<1000).map { TracePoint(c, time: 1_800_000_000 + Double($0) * 0.01) }
        let admitted = estimator.admit(vehicle: "flood", points: points)
        #expect(admitted.rateLimited > 0)
        #expect(admitted.trace.count <= estimator.settings.maxPointsPerVehiclePerMinute * 2)
    }

    @Test func badProbeUploadsAreRefused() throws {
        let s = try Self.scenario()
        let service = try s.service(clock: TestClock(Date(timeIntervalSince1970: 1_800_000_600)), profiles: [.car])
        func code(_ body: String) -> (String?, String?) {
            do { _ = try service.ingestProbes(Array(body.utf8), expiresInSeconds: 900); return (nil, nil) } catch { return (error.code.rawValue, error.parameter) }
        }
        #expect(code("lat,lon,time\n60,24,1800000000\n60,24.001,1800000005\n").0 == "BAD_INPUT")  // no vehicle id
        #expect(code("vehicle,lat,lon,time\nv,60,24,1800000005\nv,60,24.001,1800000000\n").0 == "BAD_INPUT")  // unordered
        #expect(code("vehicle,lat,lon\nv,60,24\n").0 == "BAD_INPUT")  // no time
        #expect(code("vehicle,lat,lon,time\nv,95,24,1800000000\n").0 == "BAD_INPUT")
        var big = "vehicle,lat,lon,time\n"
        for i in 0..<100_001 { big += "v,60,24,\(1_800_000_000 + i)\n" }
        let (tooBig, parameter) = code(big)
        #expect(tooBig == "TOO_BIG")
        #expect(parameter == "maxTracePoints")
        // Positions in the sea: taken, matched to nothing, dropped.
        let sea = try service.ingestProbes(Array("vehicle,lat,lon,time\nv,0,0,1800000000\nv,0,0.001,1800000005\n".utf8), expiresInSeconds: 900)
        #expect(sea.matchedPoints == 0)
        #expect(sea.speeds.isEmpty)
    }
}
