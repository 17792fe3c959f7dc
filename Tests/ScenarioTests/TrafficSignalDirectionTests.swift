import Testing
import MapsTestSupport
import OSMPBF
import RoadNetwork

/// A traffic signal mapped for one direction of its street (`traffic_signals:direction`) costs its
/// 2 s only to traffic going that way, as OSRM's car.lua and bicycle.lua read it; walkers wait at
/// every signal (foot.lua reads no direction). Street `abc`, 100 m a side, signal at `b`.
@Suite("Traffic signal direction") struct TrafficSignalDirectionTests {
    static func seconds(_ signal: Tags?, way: String = "abc", from: Character, to: Character, mode: TravelMode) throws -> Double {
        let s = try Scenario("a b c", ways: [way: ["highway": "residential"]], nodes: signal.map { ["b": $0] } ?? [:])
        return try #require(s.routeResult([from, to], mode: mode)).durationSeconds
    }

    /// Seconds the signal adds to a trip from `from` to `to`.
    static func wait(_ signal: Tags, way: String = "abc", from: Character, to: Character, mode: TravelMode) throws -> Double {
        try seconds(signal, way: way, from: from, to: to, mode: mode) - seconds(nil, way: way, from: from, to: to, mode: mode)
    }

    @Test("traffic_signals:direction=forward holds along the way's node order, backward against it", arguments: [
        TravelMode.car, .bicycle,
    ])
    func oneDirection(_ mode: TravelMode) throws {
        let forward: Tags = ["highway": "traffic_signals", "traffic_signals:direction": "forward"]
        let backward: Tags = ["highway": "traffic_signals", "traffic_signals:direction": "backward"]
        #expect(abs(try Self.wait(forward, from: "a", to: "c", mode: mode) - 2) < 0.01)
        #expect(abs(try Self.wait(forward, from: "c", to: "a", mode: mode)) < 0.01)
        #expect(abs(try Self.wait(backward, from: "a", to: "c", mode: mode)) < 0.01)
        #expect(abs(try Self.wait(backward, from: "c", to: "a", mode: mode) - 2) < 0.01)
        // The way drawn the other way round (`cba`): its forward is from c to a.
        #expect(abs(try Self.wait(forward, way: "cba", from: "c", to: "a", mode: mode) - 2) < 0.01)
        #expect(abs(try Self.wait(forward, way: "cba", from: "a", to: "c", mode: mode)) < 0.01)
    }

    @Test("a plain direction=* keeps a car's signal to one direction, not a bicycle's (bicycle.lua reads only traffic_signals:direction)")
    func plainDirection() throws {
        let signal: Tags = ["highway": "traffic_signals", "direction": "forward"]
        #expect(abs(try Self.wait(signal, from: "c", to: "a", mode: .car)) < 0.01)
        #expect(abs(try Self.wait(signal, from: "c", to: "a", mode: .bicycle) - 2) < 0.01)
    }

    @Test("a walker waits at a signal in both directions, whatever its direction tag")
    func walking() throws {
        let signal: Tags = ["highway": "traffic_signals", "traffic_signals:direction": "forward"]
        #expect(abs(try Self.wait(signal, from: "a", to: "c", mode: .pedestrian) - 2) < 0.01)
        #expect(abs(try Self.wait(signal, from: "c", to: "a", mode: .pedestrian) - 2) < 0.01)
    }
}
