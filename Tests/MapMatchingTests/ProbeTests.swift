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
