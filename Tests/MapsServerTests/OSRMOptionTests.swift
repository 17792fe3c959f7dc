import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import GeoCore
import OSMPBF

/// A drawn map served through the production router, asked in OSRM's URLs.
struct DrawnOSRM {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))  // Monday 03:00 Helsinki
    let scenario: Scenario
    let router: Router

    init(_ drawing: String, gridMeters: Double = 100, ways: KeyValuePairs<String, Tags>, timeZone: String = "Europe/Helsinki") throws {
        scenario = try Scenario(drawing, gridMeters: gridMeters, ways: ways)
        router = MapsApplication(service: try scenario.service(clock: Self.clock, timeZone: timeZone)).router()
    }

    /// Status and JSON body of a GET; `{x}` in the target is drawn letter x as "lon,lat".
    func get(_ target: String) throws -> (status: HTTPStatus, body: [String: Any]) {
        var path = target
        for c in scenario.map.positions.keys where c.isLetter { path = path.replacingOccurrences(of: "{\(c)}", with: scenario.lonLat(c)) }
        let response = router.handle(try HTTPRequest(method: .get, target: path))
        return (response.status, try ServerFixture.json(response))
    }

    func code(_ target: String) throws -> String? { try get(target).body["code"] as? String }

    /// Metres of the first route.
    func distance(_ target: String) throws -> Double {
        let body = try get(target).body
        let routes = try #require(body["routes"] as? [[String: Any]], "\(body)")
        return try #require(routes.first?["distance"] as? Double)
    }

    /// The snapped waypoints ("waypoints" of route and nearest) as coordinates.
    func waypoints(_ target: String) throws -> [Coordinate] {
        let body = try get(target).body
        let list = try #require(body["waypoints"] as? [[String: Any]], "\(body)")
        return try list.map { w in
            let l = try #require(w["location"] as? [Double])
            return Coordinate(latitude: l[1], longitude: l[0])
        }
    }

    func meters(_ p: Coordinate, _ c: Character) -> Double { Geodesy.distanceMeters(p, scenario.coordinate(c)) }
}

/// OSRM's options on `/route/v1`, `/nearest/v1` and `/table/v1`, each on a map drawn so that
/// the option changes the answer.
@Suite struct OSRMOptionTests {
    /// a → b straight along `amb` (of the kind tested), or around by c and d on a tertiary road.
    static func excludeMap(_ tags: Tags) throws -> DrawnOSRM {
        try DrawnOSRM("""
            a    m    b

            c         d
            """, gridMeters: 200, ways: ["amb": tags, "acdb": ["highway": "tertiary"]])
    }

    @Test(arguments: ["motorway", "toll", "ferry"])
    func excludeNeverUsesTheClass(name: String) throws {
        let tags: Tags = switch name {
        case "motorway": ["highway": "motorway", "oneway": "no"]
        case "toll": ["highway": "primary", "toll": "yes"]
        default: ["route": "ferry", "duration": "00:01"]
        }
        let map = try Self.excludeMap(tags)
        let direct = try map.distance("/route/v1/driving/{a};{b}?overview=false")
        let around = try map.distance("/route/v1/driving/{a};{b}?overview=false&exclude=\(name)")
        let straight = map.meters(map.scenario.coordinate("b"), "a")
        #expect(abs(direct - straight) < 5, "the \(name) road is the way without exclude")
        #expect(around > straight * 1.5, "exclude=\(name) drives around")
    }

    @Test func excludeIsStrictAndChecked() throws {
        let map = try DrawnOSRM("a    m    b", gridMeters: 200, ways: ["amb": ["highway": "motorway", "oneway": "no"]])
        #expect(try map.code("/route/v1/driving/{a};{b}?exclude=motorway") == "NoRoute")
        #expect(try map.code("/table/v1/driving/{a};{b}?exclude=motorway")  == "Ok")
        let table = try map.get("/table/v1/driving/{a};{b}?exclude=motorway").body["durations"] as? [[Any]]
        #expect(table?[0][1] is NSNull, "no cell over an excluded road")
        let refused = try map.get("/route/v1/driving/{a};{b}?exclude=tunnel")
        #expect(refused.status == .badRequest && refused.body["code"] as? String == "InvalidValue")
        #expect("\(refused.body["message"] ?? "")".contains("tunnel"))
        // No road but the motorway near m: nearest finds none once motorways are excluded.
        #expect(try map.code("/nearest/v1/driving/{m}?exclude=motorway") == "NoSegment")
        #expect(try map.code("/nearest/v1/driving/{m}") == "Ok")
    }

    /// East–west roads a–b and n–c, north–south ones n–s and b–c; P is nearest a–b.
    static func bearingMap() throws -> DrawnOSRM {
        try DrawnOSRM("""
            a - - - - - - - - b
               P              |
                      n - - - c
                      |
                      s
            """, ways: ["ab": ["highway": "residential"], "bc": ["highway": "residential"],
                        "nc": ["highway": "residential"], "ns": ["highway": "residential"]])
    }

    @Test func bearingsPickTheRoadThatRunsThatWay() throws {
        let map = try Self.bearingMap()
        let free = try map.waypoints("/route/v1/driving/{P};{s}?overview=false")[0]
        let north = try map.waypoints("/route/v1/driving/{P};{s}?overview=false&bearings=0,20;")[0]
        let east = try map.waypoints("/route/v1/driving/{P};{s}?overview=false&bearings=90,20;")[0]
        let nsLongitude = map.scenario.coordinate("n").longitude
        #expect(abs(free.longitude - nsLongitude) > 1e-4, "without bearings the nearer east–west road")
        // Route waypoints are given to 1e-5°.
        #expect(abs(north.longitude - nsLongitude) < 1e-5, "bearings=0 snaps to the north–south road")
        #expect(abs(east.latitude - map.scenario.coordinate("a").latitude) < 1e-5, "bearings=90 keeps the east–west road")
        #expect(try map.code("/route/v1/driving/{P};{s}?bearings=45,10;") == "NoSegment")
        let table = try map.get("/table/v1/driving/{P};{s}?bearings=0,20;").body
        let source = ((table["sources"] as? [[String: Any]])?.first?["location"] as? [Double]) ?? []
        #expect(abs((source.first ?? 0) - nsLongitude) < 1e-6, "a table's point snaps by its bearing too")
        let nearest = try map.waypoints("/nearest/v1/driving/{P}?number=3&bearings=180,20")
        let bcLongitude = map.scenario.coordinate("b").longitude
        #expect(nearest.count == 2, "the two north–south segments only")
        #expect(abs((nearest.first?.longitude ?? 0) - nsLongitude) < 1e-6 && abs((nearest.last?.longitude ?? 0) - bcLongitude) < 1e-6)
        #expect(try map.waypoints("/nearest/v1/driving/{P}?number=3").count == 3, "any direction without bearings")
        #expect(try map.get("/route/v1/driving/{P};{s}?bearings=0,20").body["code"] as? String == "InvalidOptions")
        #expect(try map.get("/route/v1/driving/{P};{s}?bearings=400,20;").body["code"] as? String == "InvalidOptions")
    }

    @Test func bearingsSetTheDirectionOfDeparture() throws {
        // From P on the two-way road a–b to b: heading west first means going round by a.
        let map = try DrawnOSRM("""
            a - - P - - b
            |           |
            c - - - - - d
            """, ways: ["aPb": ["highway": "residential"], "acdb": ["highway": "residential"]])
        let east = try map.distance("/route/v1/driving/{P};{b}?overview=false&bearings=90,30;")
        let west = try map.distance("/route/v1/driving/{P};{b}?overview=false&bearings=270,30;")
        #expect(abs(east - map.meters(map.scenario.coordinate("P"), "b")) < 5)
        #expect(west > east * 3)
    }

    @Test func radiusesLimitHowFarAPointSnaps() throws {
        let map = try Self.bearingMap()
        let gap = map.meters(Coordinate(latitude: map.scenario.coordinate("a").latitude, longitude: map.scenario.coordinate("P").longitude), "P")
        let short = Int(gap * 0.8), enough = Int(gap * 1.2) + 1
        #expect(try map.code("/route/v1/driving/{P};{s}?radiuses=\(short);") == "NoSegment")
        #expect(try map.code("/route/v1/driving/{P};{s}?radiuses=\(enough);") == "Ok")
        #expect(try map.code("/route/v1/driving/{P};{s}?radiuses=unlimited;5") == "Ok")
        #expect(try map.code("/nearest/v1/driving/{P}?radiuses=\(short)") == "NoSegment")
        #expect(try map.code("/table/v1/driving/{P};{s}?radiuses=\(short);") == "NoSegment")
        #expect(try map.code("/table/v1/driving/{P};{s}?radiuses=\(enough);") == "Ok")
        #expect(try map.waypoints("/nearest/v1/driving/{P}?radiuses=\(enough)&number=5").count == 1, "only the road within the radius")
        #expect(try map.get("/route/v1/driving/{P};{s}?radiuses=\(enough)").body["code"] as? String == "InvalidOptions")
        #expect(try map.get("/route/v1/driving/{P};{s}?radiuses=-3;").body["code"] as? String == "InvalidOptions")
    }

    /// P lies north of the two-way road a–b: right-hand traffic arriving with P at the kerb
    /// drives west along a–b, so from a it goes round by c, d and b.
    static let curbDrawing = """
              P
        a - - p - - b

        c - - - - - d
        """

    @Test func approachesCurbArrivesOnTheDrivingSide() throws {
        let ways: KeyValuePairs<String, Tags> = ["apb": ["highway": "residential"], "acdb": ["highway": "residential"]]
        let right = try DrawnOSRM(Self.curbDrawing, ways: ways)
        let plain = try right.distance("/route/v1/driving/{a};{P}?overview=false")
        let curb = try right.distance("/route/v1/driving/{a};{P}?overview=false&approaches=unrestricted;curb")
        let opposite = try right.distance("/route/v1/driving/{a};{P}?overview=false&approaches=;opposite")
        #expect(abs(plain - right.meters(right.scenario.coordinate("p"), "a")) < 5)
        #expect(curb > plain * 3)
        #expect(abs(opposite - plain) < 1)
        func cell(_ query: String) throws -> Double {
            let rows = try #require(try right.get("/table/v1/driving/{a};{P}?annotations=distance&\(query)").body["distances"] as? [[Any]])
            return try #require(rows[0][1] as? Double)
        }
        #expect(try cell("approaches=;curb") > (try cell("approaches=;unrestricted")) * 3, "a table's cells arrive at the kerb too")
        // Driving on the left, the kerb is the other side.
        let left = try DrawnOSRM(Self.curbDrawing, ways: ways, timeZone: "Europe/London")
        #expect(abs(try left.distance("/route/v1/driving/{a};{P}?overview=false&approaches=;curb") - plain) < 1)
        #expect(try right.get("/route/v1/driving/{a};{P}?approaches=kerb;curb").body["code"] as? String == "InvalidOptions")
    }

    @Test func annotationsComeFromTheRoutesPieces() throws {
        let map = try Self.excludeMap(["highway": "primary"])
        let body = try map.get("/route/v1/driving/{a};{b}?overview=false&annotations=true").body
        let leg = try #require(((body["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first)
        let annotation = try #require(leg["annotation"] as? [String: Any])
        let nodes = try #require(annotation["nodes"] as? [Int64])
        #expect(nodes == ["a", "m", "b"].map { map.scenario.osmID($0) })
        let durations = try #require(annotation["duration"] as? [Double]), distances = try #require(annotation["distance"] as? [Double])
        let sources = try #require(annotation["datasources"] as? [Int])
        #expect(durations.count == distances.count && sources.count == distances.count && !distances.isEmpty)
        #expect(abs(distances.reduce(0, +) - (leg["distance"] as? Double ?? 0)) < 1)
        #expect(abs(durations.reduce(0, +) - (leg["duration"] as? Double ?? 0)) < 1)
        let names = try #require((annotation["metadata"] as? [String: Any])?["datasource_names"] as? [String])
        #expect(names == ["freeFlow", "historical", "live"])
        #expect(sources.allSatisfy { names.indices.contains($0) })
        let only = try map.get("/route/v1/driving/{a};{b}?overview=false&annotations=datasources").body
        let onlyAnnotation = ((only["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])?.first?["annotation"] as? [String: Any]
        #expect(onlyAnnotation?["datasources"] != nil && onlyAnnotation?["duration"] == nil)
    }

    @Test func hintsAreAcceptedAndGenerateHintsIsHonoured() throws {
        let map = try Self.bearingMap()
        #expect(try map.code("/route/v1/driving/{P};{s}?hints=;&snapping=any") == "Ok")
        #expect(try map.code("/route/v1/driving/{P};{s}?snapping=some") == "InvalidOptions")
        let without = try map.get("/route/v1/driving/{P};{s}?generate_hints=false").body["waypoints"] as? [[String: Any]]
        #expect(without?.count == 2 && without?.allSatisfy { $0["hint"] == nil } == true)
        let with = try map.get("/route/v1/driving/{P};{s}").body["waypoints"] as? [[String: Any]]
        #expect(with?.allSatisfy { $0["hint"] != nil } == true)
    }

    @Test func tableAnswersNoSegmentForAPointFarFromRoads() throws {
        let r = try ServerFixture.get("/table/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.seaOSRM)")
        #expect(r.status == .badRequest)
        #expect(try ServerFixture.json(r)["code"] as? String == "NoSegment")
    }

    @Test(arguments: [("/route/v1/driving/A;B", "waypoints=0;1"), ("/route/v1/driving/A;B", "skip_waypoints=true"),
                      ("/route/v1/driving/A;B", "foo=1"), ("/table/v1/driving/A;B", "skip_waypoints=true"),
                      ("/nearest/v1/driving/A", "alternatives=true"),
                      ("/match/v1/driving/A;B", "exclude=motorway")])
    func otherOptionsAreRefusedByName(path: String, option: String) throws {
        let target = path.replacingOccurrences(of: "A", with: ServerFixture.osrm("a")).replacingOccurrences(of: "B", with: ServerFixture.osrm("l"))
        let r = try ServerFixture.get("\(target)?\(option)")
        let body = try ServerFixture.json(r)
        #expect(r.status == .badRequest)
        #expect(body["code"] as? String == "InvalidOptions")
        #expect("\(body["message"] ?? "")".contains(option.prefix { $0 != "=" }))
    }
}
