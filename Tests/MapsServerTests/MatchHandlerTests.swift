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

/// `/match/v1` over the real router on the drawn town, graded traces, and bad input.
@Suite struct MatchHandlerTests {
    @Test func gradedTracesAreMatched() throws {
        let service = try #require(ServerFixture.app).service
        let graph = try #require(service.planning.graph(.car))
        var rng = SplitMix64(seed: 7)
        var hit = 0.0, total = 0.0, right = 0.0, points = 0.0
        var seeds = SplitMix64(seed: 3)
        let drives = service.planning.randomDrives(count: 8, minMeters: 500, using: &seeds)
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

    /// Five fixes along Mannerheimintie from a towards d, 75 m (5 s) apart, as (lon, lat).
    static let line: [(Double, Double)] = (1...5).map { i in
        let p = Geodesy.interpolate(ServerFixture.town.coordinate("a"), ServerFixture.town.coordinate("d"), Double(i) * 0.05)
        return (p.longitude, p.latitude)
    }

    static func text(_ r: HTTPResponse) -> String {
        guard case .bytes(let bytes) = r.body else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func getMatchAnswersInOSRMShape() throws {
        let coords = Self.line.map { "\($0.0),\($0.1)" }.joined(separator: ";")
        let times = (0..<Self.line.count).map { String(1_796_000_400 + $0 * 5) }.joined(separator: ";")
        let r = try ServerFixture.get("/match/v1/driving/\(coords)?timestamps=\(times)&radiuses=\(Array(repeating: "20", count: Self.line.count).joined(separator: ";"))&steps=true&annotations=nodes,distance&overview=full&geometries=geojson")
        #expect(r.status.rawValue == 200)
        let body = try ServerFixture.json(r)
        #expect(body["code"] as? String == "Ok")
        let matchings = try #require(body["matchings"] as? [[String: Any]])
        #expect(!matchings.isEmpty)
        #expect((matchings[0]["confidence"] as? Double).map { (0...1).contains($0) } == true)
        let legs = try #require(matchings[0]["legs"] as? [[String: Any]])
        let annotation = try #require(legs.first?["annotation"] as? [String: Any])
        let nodes = try #require(annotation["nodes"] as? [Any])
        #expect(!nodes.isEmpty)
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
            #expect(r.status.rawValue == 200, "\(Self.text(r).prefix(200))")
        }
    }

    @Test func badTracesAreClear4xx() throws {
        let two = Self.line.prefix(2).map { "\($0.0),\($0.1)" }.joined(separator: ";")
        let first = "\(Self.line[0].0),\(Self.line[0].1)"
        func answer(_ target: String) throws -> (Int, String?) {
            let r = try ServerFixture.get(target)
            return (r.status.rawValue, try ServerFixture.json(r)["code"] as? String)
        }
        #expect(try answer("/match/v1/driving/\(two)?timestamps=1796000410;1796000400") == (400, "InvalidValue"))  // unordered
        #expect(try answer("/match/v1/driving/\(first)") == (400, "InvalidValue"))  // one point
        #expect(try answer("/match/v1/driving/0,0;0.001,0.001") == (400, "NoMatch"))  // in the sea
        #expect(try answer("/match/v1/driving/\(two)?timestamps=1") == (400, "InvalidValue"))
        #expect(try answer("/match/v1/driving/\(two)?gaps=sometimes") == (400, "InvalidValue"))
        #expect(try answer("/match/v1/driving/\(two)?bearings=0,20;0,20") == (400, "InvalidOptions"))
        #expect(try answer("/match/v1/driving/\(two)?radiuses=5;500") == (400, "InvalidValue"))
        // Duplicate points are matched (a vehicle standing still).
        #expect(try answer("/match/v1/driving/\(first);\(two)") == (200, "Ok"))
        var big = "lat,lon\n"
        for i in 0..<10_001 { big += "60.17,\(24.93 + Double(i) * 1e-6)\n" }
        let r = try ServerFixture.post("/match/v1/driving", body: big)
        #expect(r.status.rawValue == 400)
        #expect(try ServerFixture.json(r)["code"] as? String == "TooBig")
        #expect(Self.text(r).contains("maxTracePoints"))
    }
}
