import Testing
import RoadExtract
import OSMPBF

/// The share of its speed a way is worth to fastest car routes, per direction, as OSRM
/// lib/way_handlers.lua `penalties` computes it for car.lua (the smallest share counts).
@Suite struct RatePenaltyTests {
    @Test("car", arguments: [
        (["highway": "residential"], 100, 100),
        (["highway": "residential", "lanes": "1"], 50, 50),
        (["highway": "residential", "lanes": "2"], 100, 100),
        (["highway": "residential", "lanes": "1;2"], 50, 50),
        (["highway": "residential", "lanes": "1", "oneway": "yes"], 100, 0),
        (["highway": "residential", "width": "3"], 50, 50),
        (["highway": "residential", "width": "3.5"], 60, 60),
        (["highway": "residential", "width": "4,5 m"], 75, 75),
        (["highway": "residential", "width": "5.5"], 80, 80),
        (["highway": "residential", "width": "6"], 100, 100),
        (["highway": "residential", "width": "12'"], 60, 60),
        (["highway": "residential", "lane_markings": "no"], 75, 75),
        // A width of 6 m or more leaves the lane-markings share; lanes=1 replaces both.
        (["highway": "residential", "lane_markings": "no", "width": "7"], 75, 75),
        (["highway": "residential", "lane_markings": "no", "width": "5.5"], 80, 80),
        (["highway": "residential", "lane_markings": "no", "lanes": "1", "width": "5.5"], 50, 50),
        (["highway": "service", "service": "parking_aisle"], 50, 50),
        (["highway": "service", "service": "drive-through", "oneway": "yes"], 50, 0),
        (["highway": "service", "service": "driveway", "side_road": "yes"], 50, 50),
        (["highway": "secondary", "side_road": "yes"], 80, 80),
        (["highway": "secondary", "side_road": "rotary"], 80, 80),
        (["highway": "residential", "priority": "forward"], 100, 70),
        (["highway": "residential", "priority": "backward"], 70, 100),
        (["highway": "residential", "priority": "backward", "side_road": "yes"], 70, 80),
    ] as [([String: String], Int, Int)])
    func car(tags: [String: String], forward: Int, backward: Int) throws {
        let v = try #require(Profile.car.evaluate(way: Tags(tags)))
        let got = (v.forwardSpeedKmh > 0 ? Int(v.forwardRatePercent) : 0, v.backwardSpeedKmh > 0 ? Int(v.backwardRatePercent) : 0)
        #expect(got == (forward, backward), "\(tags): got \(got)")
    }

    @Test func otherModesCountEveryWayWhole() throws {
        let v = try #require(Profile.bicycle.evaluate(way: ["highway": "residential", "lanes": "1", "service": "alley"]))
        #expect(v.forwardRatePercent == 100 && v.backwardRatePercent == 100)
    }
}
