import Foundation
import Testing
import MapsTestSupport
import MapsServer
import HTTPServer
import OSMPBF

/// What TomTom's route types and `avoid=unpavedRoads` mean for a bicycle, and OSRM's quiet
/// profile, through the HTTP handlers on a drawn map: a street `ab` (300 m) or the way round
/// `a c d b` (500 m) on residential streets.
@Suite("Bicycle route types") struct BicycleRouteTypeTests {
    static let drawing = """
        a     b
        c     d
        """

    /// The drawn map with `ab` tagged so, served through the HTTP handlers.
    struct Town {
        let scenario: Scenario
        let router: Router

        init(_ ab: Tags, relations: [(ways: [String], tags: Tags)] = []) throws {
            let quiet: Tags = ["highway": "residential"]
            scenario = try Scenario(BicycleRouteTypeTests.drawing, gridMeters: 100, ways: ["ab": ab, "ac": quiet, "cd": quiet, "db": quiet],
                                    relations: relations, profiles: [.bicycle])
            let service = try scenario.service(clock: TestClock(Date(timeIntervalSince1970: 1_780_000_000)), profiles: [.bicycle])
            router = MapsApplication(service: service).router()
        }

        /// Metres of the TomTom route from `a` to `b`, or minus the HTTP status when it is not 200.
        func tomtom(_ query: String) throws -> Int {
            let at = { (c: Character) in "\(scenario.coordinate(c).latitude),\(scenario.coordinate(c).longitude)" }
            let response = try router.handle(try HTTPRequest(method: .get,
                                                             target: "/routing/1/calculateRoute/\(at("a")):\(at("b"))/json?travelMode=bicycle&\(query)"))
            guard response.status == .ok else { return -response.status.rawValue }
            let routes = try #require(try ServerFixture.json(response)["routes"] as? [[String: Any]])
            return try #require((routes.first?["summary"] as? [String: Any])?["lengthInMeters"] as? Int)
        }

        /// Metres of the OSRM route from `a` to `b` asked with this profile.
        func osrm(profile: String) throws -> Int {
            let at = { (c: Character) in "\(scenario.coordinate(c).longitude),\(scenario.coordinate(c).latitude)" }
            let response = try router.handle(try HTTPRequest(method: .get, target: "/route/v1/\(profile)/\(at("a"));\(at("b"))?overview=false"))
            let routes = try #require(try ServerFixture.json(response)["routes"] as? [[String: Any]])
            return Int(((routes.first?["distance"] as? Double) ?? -1).rounded())
        }
    }

    @Test("eco is the quiet route: it rides round a primary road without a cycle lane (up to 2x), fastest does not")
    func quietAvoidsPrimary() throws {
        let r = try Town(["highway": "primary"])
        #expect(try r.tomtom("routeType=fastest") == 300)
        #expect(try r.tomtom("routeType=eco") == 500)
        #expect(try r.tomtom("routeType=shortest") == 300)
        #expect(try r.osrm(profile: "cycling") == 300)
        #expect(try r.osrm(profile: "cyclability") == 500)
    }

    @Test("the quiet route keeps a primary road with a cycle lane, and a secondary road when the way round is over 1.54x")
    func quietKeepsLanesAndSecondaries() throws {
        #expect(try Town(["highway": "primary", "cycleway:right": "lane"]).tomtom("routeType=eco") == 300)
        #expect(try Town(["highway": "secondary"]).tomtom("routeType=eco") == 300)
    }

    @Test("the quiet route rides round a street with fast traffic (maxspeed 70), unless it has a cycle lane")
    func quietAvoidsFastTraffic() throws {
        let fast = try Town(["highway": "residential", "maxspeed": "70"])
        #expect(try fast.tomtom("routeType=fastest") == 300)
        #expect(try fast.tomtom("routeType=eco") == 500)
        #expect(try Town(["highway": "residential", "maxspeed": "70", "cycleway:right": "lane"]).tomtom("routeType=eco") == 300)
    }

    @Test("a route=bicycle relation is a preference of the quiet route: it keeps the primary road the route follows")
    func cycleRouteRelation() throws {
        let r = try Town(["highway": "primary"], relations: [(ways: ["ab"], tags: ["type": "route", "route": "bicycle", "name": "EuroVelo"])])
        #expect(try r.tomtom("routeType=eco") == 300)
    }

    @Test("thrilling has no meaning for a bicycle: 400 naming routeType")
    func thrillingRefused() throws {
        let r = try Town(["highway": "residential"])
        #expect(try r.tomtom("routeType=thrilling") == -400)
    }

    @Test("avoid=unpavedRoads keeps a bicycle off a compacted street that is quicker")
    func avoidUnpaved() throws {
        let r = try Town(["highway": "residential", "surface": "compacted"])
        #expect(try r.tomtom("") == 300)
        #expect(try r.tomtom("avoid=unpavedRoads") == 500)
    }
}
