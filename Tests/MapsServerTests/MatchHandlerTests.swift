import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import MapMatching
import RoutePlanning
import RoadNetwork
import GeoCore
import HTTPServer

/// `/match/v1` over the real router on Helsinki, graded traces, and bad input.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct MatchHandlerTests {
    /// Car drives of at least 800 m between seeded random points, as arcs with their times.
    static func drives(_ planning: PlanningEngine, count: Int, seed: UInt64) throws -> [[DrivenPiece]] {
        let graph = try #require(planning.graph(.car))
        var rng = SplitMix64(seed: seed)
        var out: [[DrivenPiece]] = []
        var tries = 0
        while out.count < count && tries < 500 {
            tries += 1
            func point() -> Coordinate {
                var a = Int(rng.next() % UInt64(graph.arcCount))
                while !graph.arcFlags[a].contains(.largestComponent) { a = (a + 1) % graph.arcCount }
                return graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
            }
            var request = PlanRequest(waypoints: [point(), point()], mode: .car)
            request.traffic = false
            guard let route = planning.plan(request).plan?.best, route.lengthMeters >= 800 else { continue }
            out.append(route.legs.flatMap { $0.arcs.map { DrivenPiece(arc: $0.arc, from: $0.fromFraction, to: $0.toFraction, seconds: $0.durationSeconds) } })
        }
        return out
    }

    @Test func gradedTracesAreMatched() throws {
        let service = try #require(ServerFixture.app).service
        let graph = try #require(service.planning.graph(.car))
        var rng = SplitMix64(seed: 7)
        var hit = 0.0, total = 0.0, right = 0.0, points = 0.0
        let drives = try Self.drives(service.planning, count: 8, seed: 3)
        #expect(drives.count == 8)
        for (d, drive) in drives.enumerated() {
            var simulation = TraceSimulation(intervalSeconds: 5, noiseMeters: 10)
            simulation.gap = d % 2 == 1
            let trace = simulation.trace(graph, drive: drive, start: 1_796_000_400, using: &rng)
            var parameters = MatchParameters()
            parameters.defaultAccuracyMeters = 10
            let outcome = try #require(service.planning.match(trace.points, mode: .car, parameters: parameters))
            let grade = MatchGrade(trace, result: MatchResult(matchings: outcome.stretches.map(\.matching), points: outcome.points), graph: graph)
            let length = trace.trueSegments.values.reduce(0, +)
            hit += grade.lengthShare * length; total += length
            right += grade.pointShare * Double(trace.points.count); points += Double(trace.points.count)
        }
        #expect(hit / total >= 0.9, "length matched \(hit / total)")
        #expect(right / points >= 0.85, "points on the right road \(right / points)")
    }

    static func json(_ r: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
    }

    /// A few points along Mannerheimintie-ish streets of the clip, 5 s apart.
    static let line: [(Double, Double)] = [(24.9384, 60.1699), (24.9390, 60.1702), (24.9396, 60.1706), (24.9402, 60.1709), (24.9408, 60.1713)]

    @Test func getMatchAnswersInOSRMShape() throws {
        let coords = Self.line.map { "\($0.0),\($0.1)" }.joined(separator: ";")
        let times = (0..<Self.line.count).map { String(1_796_000_400 + $0 * 5) }.joined(separator: ";")
        let r = try ServerFixture.get("/match/v1/driving/\(coords)?timestamps=\(times)&radiuses=\(Array(repeating: "20", count: Self.line.count).joined(separator: ";"))&steps=true&annotations=nodes,distance&overview=full&geometries=geojson")
        #expect(r.status.rawValue == 200)
        let body = try Self.json(r)
        #expect(body["code"] as? String == "Ok")
        let matchings = try #require(body["matchings"] as? [[String: Any]])
        #expect(!matchings.isEmpty)
        #expect((matchings[0]["confidence"] as? Double).map { (0...1).contains($0) } == true)
        let legs = try #require(matchings[0]["legs"] as? [[String: Any]])
        #expect(!((legs.first?["annotation"] as? [String: Any])?["nodes"] as? [Any] ?? []).isEmpty)
        let tracepoints = try #require(body["tracepoints"] as? [Any])
        #expect(tracepoints.count == Self.line.count)
    }

    @Test func postedTracesInEveryForm() throws {
        let gpx = "<gpx><trk><name>t</name><trkseg>" + Self.line.enumerated().map { i, p in
            "<trkpt lat=\"\(p.1)\" lon=\"\(p.0)\"><time>2026-12-01T08:00:\(String(format: "%02d", i * 5))Z</time></trkpt>"
        }.joined() + "</trkseg></trk></gpx>"
        let geojson = "{\"type\":\"Feature\",\"properties\":{\"times\":[\(Self.line.indices.map { String(1_796_000_400 + $0 * 5) }.joined(separator: ","))]},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[\(Self.line.map { "[\($0.0),\($0.1)]" }.joined(separator: ","))]}}"
        let csv = "time,lat,lon\n" + Self.line.enumerated().map { "\(1_796_000_400 + $0 * 5),\($1.1),\($1.0)" }.joined(separator: "\n")
        for body in [gpx, geojson, csv] {
            let r = try ServerFixture.post("/match/v1/driving", body: body)
            #expect(r.status.rawValue == 200, "\(String(decoding: r.body, as: UTF8.self).prefix(200))")
        }
    }

    @Test func badTracesAreClear4xx() throws {
        let two = "24.9384,60.1699;24.9390,60.1702"
        func answer(_ target: String) throws -> (Int, String?) {
            let r = try ServerFixture.get(target)
            return (r.status.rawValue, try Self.json(r)["code"] as? String)
        }
        #expect(try answer("/match/v1/driving/\(two)?timestamps=1796000410;1796000400") == (400, "InvalidValue"))  // unordered
        #expect(try answer("/match/v1/driving/24.9384,60.1699") == (400, "InvalidValue"))  // one point
        #expect(try answer("/match/v1/driving/0,0;0.001,0.001") == (400, "NoMatch"))  // in the sea
        #expect(try answer("/match/v1/driving/\(two)?timestamps=1") == (400, "InvalidValue"))
        #expect(try answer("/match/v1/driving/\(two)?gaps=sometimes") == (400, "InvalidValue"))
        #expect(try answer("/match/v1/driving/\(two)?bearings=0,20;0,20") == (400, "InvalidValue"))
        #expect(try answer("/match/v1/driving/\(two)?radiuses=5;500") == (400, "InvalidValue"))
        // Duplicate points are matched (a vehicle standing still).
        #expect(try answer("/match/v1/driving/24.9384,60.1699;24.9384,60.1699;24.9390,60.1702") == (200, "Ok"))
        var big = "lat,lon\n"
        for i in 0..<10_001 { big += "60.17,\(24.93 + Double(i) * 1e-6)\n" }
        let r = try ServerFixture.post("/match/v1/driving", body: big)
        #expect(r.status.rawValue == 400)
        #expect(try Self.json(r)["code"] as? String == "TooBig")
        #expect(String(decoding: r.body, as: UTF8.self).contains("maxTracePoints"))
    }
}
