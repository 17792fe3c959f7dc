import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Routing
import GeoCore
import OSMPBF

@Suite("Route types and avoidances") struct RouteOptionTests {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))  // Monday 03:00 Helsinki

    @Test func fastestAndShortestDisagree() throws {
        // a→b direct on a slow track-like street (short), or around on a fast primary (long).
        let s = try Scenario("""
            c         d

            a    e    b
            """, gridMeters: 400, ways: ["aeb": ["highway": "living_street"], "acdb": ["highway": "primary"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["a", "b"])
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "acdb")
        q.routeType = .shortest
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "aeb")
    }

    @Test func ecoAvoidsFuelHungrySpeeds() throws {
        // Equal length: a motorway at 130 km/h (maxspeed) or a secondary road at 70 km/h.
        let s = try Scenario("""
            a    m    b

                 c
            """, gridMeters: 1000, ways: ["amb": ["highway": "motorway", "oneway": "no", "maxspeed": "160"],
                                          "acb": ["highway": "secondary", "maxspeed": "80"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["a", "b"])
        let fastest = try service.calculateRoute(q).routes[0]
        #expect(s.nodes(fastest) == "amb")
        q.routeType = .eco
        let eco = try service.calculateRoute(q).routes[0]
        #expect(s.nodes(eco) == "acb")
        #expect(eco.summary.fuelConsumptionInLiters! < fastest.summary.fuelConsumptionInLiters!)
    }

    @Test func thrillingPrefersWindingMinorRoads() throws {
        // A straight motorway, or a zig-zag tertiary road half as long again.
        let s = try Scenario("""
            a         m         b
              p   r   u   w   y
                q   s   v   x
            """, gridMeters: 300, ways: ["amb": ["highway": "motorway", "oneway": "no"], "apqrsuvwxyb": ["highway": "tertiary"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["a", "b"])
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "amb")
        q.routeType = .thrilling
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "apqrsuvwxyb")
    }

    @Test func softAvoidanceUsesTheRoadOnlyWhenNothingElseGoesThere() throws {
        //  a - t - b   (toll road)
        //  |       |
        //  c ----- d   (free, longer)
        //              e is reached only over the toll bridge b-e.
        let s = try Scenario("""
            a   t   b   e

            c       d
            """, gridMeters: 500, ways: ["atb": ["highway": "primary", "toll": "yes"], "ac": ["highway": "primary"],
                                         "cd": ["highway": "primary"], "db": ["highway": "primary"],
                                         "be": ["highway": "primary", "toll": "yes"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["a", "b"])
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "atb")
        q.avoid = [.tollRoads]
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "acdb")
        // e cannot be reached without a toll: soft avoidance still gets there, and says so.
        var toE = s.query(["a", "e"])
        toE.avoid = [.tollRoads]
        let soft = try service.calculateRoute(toE).routes[0]
        #expect(s.nodes(soft).hasSuffix("be"))
        #expect(soft.advisoryNotices?.contains { $0.contains("toll roads because no route avoids them") } == true)
        toE.strictAvoid = true
        do {
            _ = try service.calculateRoute(toE)
            Issue.record("strict avoidance used a toll road")
        } catch {
            #expect(error.code == .noRouteFound)
            #expect(error.message.contains("avoids tollRoads"))
        }
    }

    @Test func avoidMotorwaysAndFerries() throws {
        let s = try Scenario("""
            a   m   b

            c   f   d
            """, gridMeters: 500, ways: ["amb": ["highway": "motorway", "oneway": "no"], "ac": ["highway": "residential"],
                                         "cfd": ["route": "ferry", "duration": "00:05"], "db": ["highway": "residential"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["a", "b"])
        q.avoid = [.motorways]
        let r = try service.calculateRoute(q).routes[0]
        #expect(s.nodes(r) == "acfdb")
        #expect(r.advisoryNotices?.contains { $0.contains("ferry") } == true)
        q.avoid = [.motorways, .ferries]
        q.strictAvoid = true
        #expect(throws: APIError.self) { try service.calculateRoute(q) }
    }

    @Test func headingChoosesTheDirectionOfTravel() throws {
        // Standing mid-road heading east, the route to w goes on east and around.
        let s = try Scenario("""
            w   1   e
            |       |
            x ----- y
            """, gridMeters: 200, ways: ["we": ["highway": "residential"], "wx": ["highway": "residential"],
                                         "xy": ["highway": "residential"], "ye": ["highway": "residential"]])
        let service = try s.service(clock: Self.clock)
        var q = s.query(["1", "w"])
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "w")
        q.vehicleHeading = 90
        #expect(s.nodes(try service.calculateRoute(q).routes[0]) == "eyxw")
    }
}

@Suite("Alternatives and waypoint order") struct AlternativesTests {
    @Test func alternativesAreDifferentAndReasonable() throws {
        // Three ways from a to b of increasing length, and a silly long detour.
        let s = try Scenario("""
            p                   q
            a         m         b
            r                   t


            x                   y
            """, gridMeters: 150, ways: ["amb": ["highway": "primary"], "apqb": ["highway": "primary"], "artb": ["highway": "primary"],
                                         "axyb": ["highway": "primary"]])
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(["a", "b"])
        q.maxAlternatives = 3
        let routes = try service.calculateRoute(q).routes
        let best = routes[0]
        #expect(s.nodes(best) == "amb")
        #expect(routes.count >= 2)
        var seen = Set<String>()
        for alt in routes.dropFirst() {
            let nodes = s.nodes(alt)
            #expect(!seen.contains(nodes))
            seen.insert(nodes)
            #expect(Double(alt.summary.travelTimeInSeconds) <= Double(best.summary.travelTimeInSeconds) * 1.4 + 1)
            #expect(nodes != "axyb", "the long detour is not a reasonable alternative")
            #expect(alt.summary.deviationDistance != nil)
        }
    }

    @Test func noAlternativeIsAValidAnswer() throws {
        let s = try Scenario("a b c", ways: ["abc": ["highway": "residential"]])
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(["a", "c"])
        q.maxAlternatives = 2
        #expect(try service.calculateRoute(q).routes.count == 1)
    }

    @Test func alternativesWithDepartureTimeAndWaypoints() throws {
        let s = try Scenario("""
            p                   q                   u
            a         m         b         n         c
            r                   t                   v
            """, gridMeters: 150, ways: ["ambnc": ["highway": "secondary"], "apqb": ["highway": "secondary"], "artb": ["highway": "secondary"],
                                         "bquc": ["highway": "secondary"], "btvc": ["highway": "secondary"]])
        let service = try s.service(clock: RouteOptionTests.clock)
        var q = s.query(["a", "b", "c"])
        q.maxAlternatives = 2
        q.departAt = RouteOptionTests.clock.now.addingTimeInterval(3600)
        let routes = try service.calculateRoute(q).routes
        #expect(routes.count >= 2)
        for r in routes { #expect(r.legs.count == 2) }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func bestOrderMatchesBruteForce(seed: UInt64) throws {
        // A 5×5 grid of residential streets; five random stops between fixed ends.
        var rows: [String] = []
        let letters = Array("abcdefghijklmnopqrstuvwxy")
        for r in 0..<5 { rows.append((0..<5).map { String(letters[r * 5 + $0]) }.joined(separator: " ")) }
        var ways: [(String, OSMTags)] = []
        for r in 0..<5 { ways.append((String(letters[(r * 5)..<(r * 5 + 5)]), ["highway": "residential"])) }
        for c in 0..<5 { ways.append((String((0..<5).map { letters[$0 * 5 + c] }), ["highway": c % 2 == 0 ? "secondary" : "residential"])) }
        let s = try Scenario(rows.joined(separator: "\n"), gridMeters: 200, wayList: ways.map { ($0.0, Tags($0.1)) })
        let service = try s.service(clock: RouteOptionTests.clock)
        var rng = SplitMix64(seed: seed)
        var stops: [Character] = []
        while stops.count < 5 {
            let c = letters[Int(rng.next() % 23) + 1]
            if !stops.contains(c) { stops.append(c) }
        }
        var q = s.query(["a"] + stops + ["y"])
        q.computeBestOrder = true
        let response = try service.calculateRoute(q)
        let optimizedTime = response.routes[0].summary.travelTimeInSeconds
        let order = try #require(response.optimizedWaypoints)
        #expect(order.count == 5)
        // Brute force over all 120 orders.
        var best = Int.max
        for perm in permutations(stops) {
            let r = try service.calculateRoute(s.query(["a"] + perm + ["y"]))
            best = min(best, r.routes[0].summary.travelTimeInSeconds)
        }
        #expect(optimizedTime <= best + 1, "seed \(seed): optimized \(optimizedTime) s, brute force \(best) s")
    }

    func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        var result: [[T]] = []
        for (i, x) in items.enumerated() {
            var rest = items
            rest.remove(at: i)
            for p in permutations(rest) { result.append([x] + p) }
        }
        return result
    }
}
