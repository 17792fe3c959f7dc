import Foundation
import Testing
import MapsTestSupport
import HTTPServer

extension ServerFixture {
    /// `{"point":{…}}` entries for TomTom's matrix, one per drawn letter.
    static func matrixPoints(_ letters: String) -> String {
        "[" + letters.map { c in
            let p = town.coordinate(c)
            return #"{"point":{"latitude":\#(p.latitude),"longitude":\#(p.longitude)}}"#
        }.joined(separator: ",") + "]"
    }

    static func matrixBody(origins: String, destinations: String) -> String {
        #"{"origins":\#(matrixPoints(origins)),"destinations":\#(matrixPoints(destinations))}"#
    }

    /// A Valhalla isochrone request around a drawn letter.
    static func isochroneBody(at c: Character, costing: String = "auto", minutes: Double...) -> String {
        let p = town.coordinate(c)
        let contours = minutes.map { #"{"time":\#($0)}"# }.joined(separator: ",")
        return #"{"locations":[{"lat":\#(p.latitude),"lon":\#(p.longitude)}],"costing":"\#(costing)","contours":[\#(contours)],"polygons":true}"#
    }

    /// The same, percent-encoded for `GET /isochrone?json=`.
    static func isochroneJSON(at c: Character, minutes: Double...) -> String {
        let p = town.coordinate(c)
        let contours = minutes.map { #"{"time":\#($0)}"# }.joined(separator: ",")
        let body = #"{"locations":[{"lat":\#(p.latitude),"lon":\#(p.longitude)}],"costing":"auto","contours":[\#(contours)],"polygons":true}"#
        return body.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }
}

/// Reachable range, isochrones and matrices over the handlers, on the drawn town (100 m blocks,
/// 1.5 km across, so budgets here are seconds, not minutes).
@Suite struct ReachHandlerTests {
    static let origin = ServerFixture.at("f")
    /// "lat,lon" to "lon, lat" of a drawn letter, for Valhalla's bodies.
    static func location(_ c: Character) -> String {
        let p = ServerFixture.town.coordinate(c)
        return #"{"lat":\#(p.latitude),"lon":\#(p.longitude)}"#
    }

    static func inside(_ ring: [[Double]], lon: Double, lat: Double) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in ring.indices {
            let a = ring[i], b = ring[j]
            if (a[1] > lat) != (b[1] > lat) && lon < (b[0] - a[0]) * (lat - a[1]) / (b[1] - a[1]) + a[0] { inside.toggle() }
            j = i
        }
        return inside
    }

    @Test func reachableRangeAnswersInTomTomsShape() throws {
        let r = try ServerFixture.get("/routing/1/calculateReachableRange/\(Self.origin)/json?timeBudgetInSec=25")
        #expect(r.status == .ok)
        let body = try ServerFixture.json(r)
        let range = try #require(body["reachableRange"] as? [String: Any])
        let center = try #require(range["center"] as? [String: Double])
        let boundary = try #require(range["boundary"] as? [[String: Double]])
        #expect(boundary.count >= 4)
        let ring = boundary.map { [$0["longitude"]!, $0["latitude"]!] }
        #expect(Self.inside(ring, lon: center["longitude"]!, lat: center["latitude"]!), "the centre lies inside its range")
        // A larger budget reaches farther.
        let larger = try ServerFixture.json(try ServerFixture.get("/routing/1/calculateReachableRange/\(Self.origin)/json?timeBudgetInSec=60"))
        let bigger = try #require((larger["reachableRange"] as? [String: Any])?["boundary"] as? [[String: Double]])
        func area(_ b: [[String: Double]]) -> Double {
            var s = 0.0
            for i in b.indices { let p = b[i], q = b[(i + 1) % b.count]; s += p["longitude"]! * q["latitude"]! - q["longitude"]! * p["latitude"]! }
            return s / 2
        }
        #expect(area(bigger) > area(boundary))
        #expect(area(boundary) > 0, "counter-clockwise")
    }

    @Test func distanceFuelDepartAndArrive() throws {
        for query in ["distanceBudgetInMeters=300", "fuelBudgetInLiters=0.02", "timeBudgetInSec=60&departAt=2026-11-30T08:00:00%2B02:00",
                      "timeBudgetInSec=60&arriveAt=2026-11-30T08:00:00%2B02:00", "timeBudgetInSec=60&travelMode=pedestrian",
                      "timeBudgetInSec=60&routeType=shortest&avoid=motorways"] {
            let r = try ServerFixture.get("/routing/1/calculateReachableRange/\(Self.origin)/json?\(query)")
            #expect(r.status == .ok, "\(query)")
        }
    }

    @Test("bad input is a 400 that names the parameter", arguments: [
        ("timeBudgetInSec=0", "timeBudgetInSec"),
        ("timeBudgetInSec=99999999", "timeBudgetInSec"),
        ("distanceBudgetInMeters=-5", "distanceBudgetInMeters"),
        ("", "timeBudgetInSec"),
        ("timeBudgetInSec=60&distanceBudgetInMeters=100", "timeBudgetInSec"),
        ("timeBudgetInSec=60&energyBudgetInkWh=3", "energyBudgetInkWh"),
        ("distanceBudgetInMeters=500&departAt=2026-11-30T08:00:00", "departAt"),
        ("timeBudgetInSec=60&travelMode=boat", "travelMode"),
        ("timeBudgetInSec=60&avoid=rivers", "avoid"),
    ])
    func badInput(query: String, parameter: String) throws {
        let r = try ServerFixture.get("/routing/1/calculateReachableRange/\(Self.origin)/json?\(query)")
        #expect(r.status == .badRequest, "\(query)")
        let detail = try #require(try ServerFixture.json(r)["detailedError"] as? [String: Any])
        #expect(detail["target"] as? String == parameter, "\(query)")
    }

    @Test func aPointInTheSeaIsA400() throws {
        let r = try ServerFixture.get("/routing/1/calculateReachableRange/\(ServerFixture.sea)/json?timeBudgetInSec=60")
        #expect(r.status == .badRequest)
        let detail = try #require(try ServerFixture.json(r)["detailedError"] as? [String: Any])
        #expect(detail["code"] as? String == "MAP_MATCHING_FAILURE")
        #expect(detail["target"] as? String == "origin")
    }

    @Test func isochronesAreNestedFeatures() throws {
        let body = #"{"locations":[\#(Self.location("f"))],"costing":"auto","contours":[{"time":0.4},{"time":1,"color":"00ff00"}],"polygons":true}"#
        let r = try ServerFixture.get("/isochrone?json=" + body.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
        #expect(r.status == .ok)
        let json = try ServerFixture.json(r)
        #expect(json["type"] as? String == "FeatureCollection")
        let features = try #require(json["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let props = features.map { $0["properties"] as! [String: Any] }
        #expect(props.map { $0["contour"] as? Double } == [1, 0.4], "largest first")
        #expect(props[0]["color"] as? String == "#00ff00")
        #expect(props.allSatisfy { $0["metric"] as? String == "time" })
        func outer(_ f: [String: Any]) -> [[Double]] {
            let g = f["geometry"] as! [String: Any]
            if g["type"] as? String == "Polygon" { return (g["coordinates"] as! [[[Double]]])[0] }
            return (g["coordinates"] as! [[[[Double]]]])[0][0]
        }
        let large = outer(features[0]), small = outer(features[1])
        #expect(large.first == large.last, "rings are closed")
        // Within the 1-minute contour, or on its boundary up to the simplification's tolerance (one grid cell, 80 m here).
        func metresToRing(_ p: [Double]) -> Double {
            var best = Double.infinity
            let k = cos(p[1] * .pi / 180)
            for (a, b) in zip(large, large.dropFirst()) {
                let ax = (a[0] - p[0]) * k, ay = a[1] - p[1], bx = (b[0] - p[0]) * k, by = b[1] - p[1]
                let dx = bx - ax, dy = by - ay
                let t = max(0, min(1, -(ax * dx + ay * dy) / max(1e-18, dx * dx + dy * dy)))
                best = min(best, ((ax + t * dx) * (ax + t * dx) + (ay + t * dy) * (ay + t * dy)).squareRoot() * 111_195)
            }
            return best
        }
        let outside = small.filter { !Self.inside(large, lon: $0[0], lat: $0[1]) && metresToRing($0) > 80 }
        #expect(outside.isEmpty, "the 24-second contour lies within the 1-minute one: \(outside)")
        // POST, distances, lines, reverse and a departure time.
        let post = try ServerFixture.post("/isochrone", body: #"{"locations":[\#(Self.location("f"))],"costing":"pedestrian","contours":[{"distance":0.3}],"reverse":true,"date_time":{"type":1,"value":"2026-11-30T08:00"}}"#)
        #expect(post.status == .badRequest, "date_time applies to time contours only")
        let lines = try ServerFixture.post("/isochrone", body: #"{"locations":[\#(Self.location("f"))],"costing":"pedestrian","contours":[{"distance":0.3}],"reverse":true}"#)
        #expect(lines.status == .ok)
        let g = try #require((try ServerFixture.json(lines)["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])
        #expect(["LineString", "MultiLineString"].contains(g["type"] as? String ?? ""))
    }

    @Test func isochroneErrorsAreValhallaShaped() throws {
        for body in [#"{"locations":[],"costing":"auto","contours":[{"time":5}]}"#, #"{"locations":[\#(Self.location("f"))],"costing":"boat","contours":[{"time":5}]}"#,
                     #"{"locations":[\#(Self.location("f"))],"costing":"auto","contours":[{"time":0}]}"#, "not json",
                     #"{"locations":[\#(Self.location("f"))],"costing":"auto","contours":[{"time":5}],"costing_options":{"auto":{"use_highways":0}}}"#] {
            let r = try ServerFixture.post("/isochrone", body: body)
            #expect(r.status == .badRequest, "\(body)")
            let json = try ServerFixture.json(r)
            #expect(json["error_code"] is Int && json["error"] is String, "\(body)")
        }
    }

    @Test("bad isochrone input is a 400 whose message names the parameter", arguments: [
        (#"[{"time":0}]"#, "f", "contours.time"),
        (#"[{"time":99999}]"#, "f", "contours.time"),
        (#"[{"distance":0}]"#, "f", "contours.distance"),
        (#"[{"time":5}]"#, "sea", "locations"),
        (#"[{"time":5}]"#, "", "locations"),
    ])
    func badIsochroneInput(contours: String, at: String, parameter: String) throws {
        let sea = #"{"lat":59.95,"lon":24.0}"#
        let locations = at.isEmpty ? "" : at == "sea" ? sea : Self.location(Character(at))
        let r = try ServerFixture.post("/isochrone", body: #"{"locations":[\#(locations)],"costing":"auto","contours":\#(contours)}"#)
        #expect(r.status == .badRequest, "\(contours) at \(at)")
        let message = try #require(try ServerFixture.json(r)["error"] as? String)
        #expect(message.contains(parameter), "\(contours) at \(at): \(message)")
    }

    /// Two origins, three destinations (the last at sea), without the closing brace so options can follow.
    static let matrixBody = String(ServerFixture.matrixBody(origins: "af", destinations: "lk").dropLast(2))
        + #",{"point":{"latitude":59.95,"longitude":24.0}}]"#

    @Test func matrixAnswersEveryCell() throws {
        for options in ["", #","options":{"departAt":"2026-11-30T08:00:00+02:00","traffic":"live"}"#, #","options":{"arriveAt":"2026-11-30T09:00:00+02:00"}"#] {
            let r = try ServerFixture.post("/routing/matrix/2", body: Self.matrixBody + options + "}")
            #expect(r.status == .ok, "\(options)")
            #expect(r.headers["x-matrix-cells"] == "6")
            let json = try ServerFixture.json(r)
            let data = try #require(json["data"] as? [[String: Any]])
            #expect(data.count == 6)
            let ok = data.filter { $0["routeSummary"] != nil }
            #expect(ok.count == 4, "\(options): the point at sea has no route")
            for cell in ok {
                let s = cell["routeSummary"] as! [String: Any]
                #expect((s["travelTimeInSeconds"] as? Int ?? 0) > 0 && (s["lengthInMeters"] as? Int ?? 0) > 0)
            }
            let sea = data.filter { $0["destinationIndex"] as? Int == 2 }
            #expect(sea.allSatisfy { ($0["detailedError"] as? [String: Any])?["code"] as? String == "MAP_MATCHING_FAILURE" })
            #expect((json["statistics"] as? [String: Int])?["failures"] == 2)
        }
    }

    @Test func matrixRefusesEmptyListsAndTooManyCells() throws {
        let empty = try ServerFixture.post("/routing/matrix/2", body: #"{"origins":[],"destinations":[{"point":{"latitude":60.17,"longitude":24.95}}]}"#)
        #expect(empty.status == .badRequest)
        #expect((try ServerFixture.json(empty)["detailedError"] as? [String: Any])?["target"] as? String == "origins")
        let noDestinations = try ServerFixture.post("/routing/matrix/2/async", body: #"{"origins":[{"point":{"latitude":60.17,"longitude":24.95}}],"destinations":[]}"#)
        #expect(noDestinations.status == .badRequest)
        #expect((try ServerFixture.json(noDestinations)["detailedError"] as? [String: Any])?["target"] as? String == "destinations")
        let point = #"{"point":{"latitude":60.17,"longitude":24.95}}"#
        let many = "[" + Array(repeating: point, count: 51).joined(separator: ",") + "]"
        let big = try ServerFixture.post("/routing/matrix/2", body: #"{"origins":\#(many),"destinations":\#(many)}"#)
        #expect(big.status == .badRequest, "51 × 51 is beyond 2,500 cells")
        let truck = try ServerFixture.post("/routing/matrix/2", body: Self.matrixBody + #","options":{"vehicleWeight":12000}}"#)
        #expect(truck.status == .badRequest)
        #expect((try ServerFixture.json(truck)["detailedError"] as? [String: Any])?["target"] as? String == "vehicleWeight")
    }

    @Test func asyncMatrixCompletes() throws {
        let submitted = try ServerFixture.post("/routing/matrix/2/async", body: Self.matrixBody + "}")
        #expect(submitted.status == .accepted)
        let id = try #require(try ServerFixture.json(submitted)["jobId"] as? String)
        var state = ""
        for _ in 0..<200 {
            state = try ServerFixture.json(try ServerFixture.get("/routing/matrix/2/async/\(id)"))["state"] as? String ?? ""
            if state == "Completed" || state == "Failed" { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(state == "Completed")
        let result = try ServerFixture.get("/routing/matrix/2/async/\(id)/result")
        #expect(result.status == .ok)
        #expect((try ServerFixture.json(result)["data"] as? [Any])?.count == 6)
        #expect(try ServerFixture.get("/routing/matrix/2/async/nope").status == .notFound)
    }

    @Test func osrmTableFallbackAndScale() throws {
        let coords = "\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"));\(ServerFixture.seaOSRM)"
        let noSegment = try ServerFixture.get("/table/v1/driving/\(coords)?annotations=duration,distance")
        let refusal = try ServerFixture.json(noSegment)
        #expect(noSegment.status == .badRequest && refusal["code"] as? String == "NoSegment", "no road near the sea")
        let land = "\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))"
        let plain = try ServerFixture.json(try ServerFixture.get("/table/v1/driving/\(land)?annotations=duration,distance"))
        let durations = try #require(plain["durations"] as? [[Any]])
        #expect(plain["distances"] is [[Any]])
        let filled = try ServerFixture.json(try ServerFixture.get("/table/v1/driving/\(coords)?fallback_speed=10&scale_factor=2"))
        let d = try #require(filled["durations"] as? [[Any]])
        #expect((d[0][2] as? Double ?? 0) > 0, "the fallback fills it")
        #expect(abs((d[0][1] as? Double ?? 0) - 2 * (durations[0][1] as? Double ?? 0)) < 0.2, "scale_factor doubles durations")
        for bad in ["fallback_speed=0", "scale_factor=-1", "annotations=speed", "fallback_coordinate=elsewhere"] {
            #expect(try ServerFixture.get("/table/v1/driving/\(coords)?\(bad)").status == .badRequest, "\(bad)")
        }
    }
}
