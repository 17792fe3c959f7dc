import Testing
import RoadExtract
import RoadNetwork
import OSMPBF

/// OSRM's "routability should be" tables: one way, forward and backward, per profile.
@Suite struct RoutabilityTests {
    static func directions(_ profile: Profile, _ tags: Tags) -> (Bool, Bool) {
        guard let v = profile.evaluate(way: tags) else { return (false, false) }
        return (v.forwardSpeedKmh > 0, v.backwardSpeedKmh > 0)
    }

    @Test("car", arguments: [
        (["highway": "primary"], true, true),
        (["highway": "primary", "oneway": "yes"], true, false),
        (["highway": "primary", "oneway": "-1"], false, true),
        (["highway": "motorway"], true, false),
        (["highway": "motorway", "oneway": "no"], true, true),
        (["highway": "primary", "junction": "roundabout"], true, false),
        (["highway": "primary", "oneway": "reversible"], false, false),
        (["highway": "footway"], false, false),
        (["highway": "cycleway"], false, false),
        (["highway": "steps"], false, false),
        (["highway": "track"], false, false),
        (["highway": "track", "motor_vehicle": "yes"], true, true),
        (["highway": "residential", "access": "no"], false, false),
        (["highway": "residential", "access": "no", "motorcar": "yes"], true, true),
        (["highway": "residential", "motor_vehicle": "no"], false, false),
        (["highway": "residential", "motor_vehicle": "no", "motorcar": "yes"], true, true),
        // Private, like destination: usable to begin or end a route (flagged restricted), as OSRM's car profile.
        (["highway": "residential", "vehicle": "private"], true, true),
        (["highway": "residential", "vehicle": "private", "motorcar": "no"], false, false),
        (["highway": "residential", "access": "destination"], true, true),
        (["highway": "service", "access": "no", "psv": "yes"], false, false),
        (["highway": "busway"], false, false),
        (["highway": "primary", "motor_vehicle:backward": "no"], true, false),
        (["highway": "construction"], false, false),
        (["route": "ferry"], true, true),
        (["route": "ferry", "motor_vehicle": "no"], false, false),
        (["highway": "service", "service": "emergency_access"], false, false),
    ] as [([String: String], Bool, Bool)])
    func car(tags: [String: String], forward: Bool, backward: Bool) {
        let r = Self.directions(.car, Tags(tags))
        #expect(r.0 == forward && r.1 == backward, "\(tags): got \(r)")
    }

    @Test("taxi", arguments: [
        (["highway": "service", "access": "no", "psv": "yes"], true, true),
        (["highway": "service", "access": "no", "taxi": "yes"], true, true),
        (["highway": "service", "access": "no", "bus": "yes"], false, false),
        (["highway": "busway"], true, true),
        (["highway": "primary", "oneway": "yes", "oneway:psv": "no"], true, true),
        (["highway": "primary", "oneway": "yes", "busway": "opposite_lane"], true, true),
        (["highway": "primary", "oneway": "yes"], true, false),
    ] as [([String: String], Bool, Bool)])
    func taxi(tags: [String: String], forward: Bool, backward: Bool) {
        let r = Self.directions(.taxi, Tags(tags))
        #expect(r.0 == forward && r.1 == backward, "\(tags): got \(r)")
    }

    @Test("bicycle", arguments: [
        (["highway": "cycleway"], true, true),
        (["highway": "primary", "oneway": "yes"], true, true),  // walked against it (bicycleWalksAgainstOneways)
        (["highway": "primary", "oneway": "yes", "foot": "no"], true, false),
        (["highway": "primary", "oneway": "yes", "oneway:bicycle": "no"], true, true),
        (["highway": "residential", "oneway": "yes", "cycleway": "opposite_lane"], true, true),
        (["highway": "motorway"], false, false),
        (["highway": "trunk"], false, false),
        (["highway": "trunk", "bicycle": "yes"], true, true),
        (["highway": "footway"], true, true),
        (["highway": "residential", "bicycle": "no"], false, false),
        (["highway": "primary", "junction": "roundabout"], true, false),
        // A lane serves its side's direction: on a road closed to bicycles only that direction opens.
        (["highway": "trunk", "cycleway:right": "track"], true, false),
        (["highway": "trunk", "cycleway:left": "track"], false, true),
        (["highway": "trunk", "cycleway:both": "lane"], true, true),
        (["highway": "trunk", "cycleway": "track"], true, true),
        (["highway": "trunk", "oneway": "yes", "cycleway:right": "lane"], true, false),
        (["highway": "trunk", "oneway": "-1", "cycleway:right": "lane"], false, true),
        (["highway": "trunk", "oneway": "yes", "cycleway:left": "track", "cycleway:left:oneway": "-1"], false, true),
        (["highway": "trunk", "oneway": "yes", "cycleway:left": "track", "cycleway:left:oneway": "no"], true, true),
        (["highway": "trunk", "oneway": "yes", "cycleway:left": "opposite_track"], true, true),
        (["highway": "trunk", "cycleway:right": "opposite_lane"], false, true),
        (["highway": "primary", "motorroad": "yes"], false, false),
    ] as [([String: String], Bool, Bool)])
    func bicycle(tags: [String: String], forward: Bool, backward: Bool) {
        let r = Self.directions(.bicycle, Tags(tags))
        #expect(r.0 == forward && r.1 == backward, "\(tags): got \(r)")
    }

    @Test("pedestrian", arguments: [
        (["highway": "footway"], true, true),
        (["highway": "steps"], true, true),
        (["highway": "primary", "oneway": "yes"], true, true),
        (["highway": "primary", "junction": "roundabout"], true, true),
        (["highway": "motorway"], false, false),
        (["highway": "residential", "foot": "no"], false, false),
        (["highway": "cycleway"], false, false),
        (["highway": "cycleway", "foot": "designated"], true, true),
        (["highway": "footway", "oneway:foot": "yes"], true, false),
        (["highway": "path", "access": "private"], true, true),
        (["highway": "path", "access": "private", "foot": "no"], false, false),
        (["highway": "trunk"], false, false),
        (["highway": "primary", "motorroad": "yes"], false, false),
    ] as [([String: String], Bool, Bool)])
    func pedestrian(tags: [String: String], forward: Bool, backward: Bool) {
        let r = Self.directions(.pedestrian, Tags(tags))
        #expect(r.0 == forward && r.1 == backward, "\(tags): got \(r)")
    }

    @Test("speeds follow class, maxspeed and surface", arguments: [
        (["highway": "primary"], 65.0),
        (["highway": "primary", "maxspeed": "50"], 40),
        (["highway": "residential", "maxspeed": "30 mph"], 38.62),
        (["highway": "residential", "maxspeed": "FI:urban"], 40),
        (["highway": "primary", "surface": "gravel"], 40),
        (["highway": "primary", "maxspeed": "100", "surface": "sand"], 20),
        // car.lua drives service subtypes at the `service` speed; only their weight is penalised.
        (["highway": "service", "service": "parking_aisle"], 15),
        (["highway": "motorway"], 90),
    ] as [([String: String], Double)])
    func carSpeed(tags: [String: String], kmh: Double) throws {
        let v = try #require(Profile.car.evaluate(way: Tags(tags)))
        #expect(abs(v.forwardSpeedKmh - kmh) < 0.01)
    }

    @Test func bicyclePushesOnFootways() throws {
        let v = try #require(Profile.bicycle.evaluate(way: ["highway": "footway"]))
        #expect(v.forwardPushing && v.backwardPushing)
        #expect(v.forwardSpeedKmh == 4)
        let allowed = try #require(Profile.bicycle.evaluate(way: ["highway": "footway", "bicycle": "yes"]))
        #expect(!allowed.forwardPushing && !allowed.backwardPushing)
        #expect(allowed.forwardSpeedKmh == 15)
    }

    @Test func bicycleWalksAgainstOneways() throws {
        let v = try #require(Profile.bicycle.evaluate(way: ["highway": "residential", "oneway": "yes"]))
        #expect(!v.forwardPushing && v.forwardSpeedKmh == 15)
        #expect(v.backwardPushing && v.backwardSpeedKmh == 4)
        let noFoot = try #require(Profile.bicycle.evaluate(way: ["highway": "residential", "oneway": "yes", "foot": "no"]))
        #expect(noFoot.backwardSpeedKmh == 0)
        let car = try #require(Profile.car.evaluate(way: ["highway": "residential", "oneway": "yes"]))
        #expect(car.backwardSpeedKmh == 0 && !car.backwardPushing)
    }

    @Test func flagsForAvoidancesAndAdvisories() throws {
        let toll = try #require(Profile.car.evaluate(way: ["highway": "motorway", "toll": "yes"]))
        #expect(toll.flags.contains(.toll))
        let track = try #require(Profile.car.evaluate(way: ["highway": "track", "motor_vehicle": "yes"]))
        #expect(track.flags.contains(.unpaved))
        let ferry = try #require(Profile.car.evaluate(way: ["route": "ferry", "duration": "00:30"]))
        #expect(ferry.flags.contains(.ferry))
        #expect(ferry.durationSeconds == 1800)
        let restricted = try #require(Profile.car.evaluate(way: ["highway": "residential", "access": "destination"]))
        #expect(restricted.flags.contains(.restrictedAccess))
        let court = try #require(Profile.car.evaluate(way: ["highway": "service", "access": "private"]))
        #expect(court.flags.contains(.restrictedAccess))
        let platform = try #require(Profile.pedestrian.evaluate(way: ["highway": "platform"]))
        #expect(platform.flags.contains(.platform))
    }

    @Test(arguments: [
        (Profile.car, ["barrier": "bollard"], true), (Profile.car, ["barrier": "gate"], false),
        (Profile.car, ["barrier": "lift_gate"], false), (Profile.car, ["barrier": "block"], true),
        (Profile.car, ["barrier": "bollard", "motor_vehicle": "yes"], false),
        // A private gate lets a route begin or end behind it (OSRM blocks only access values it does not treat as restricted).
        (Profile.car, ["barrier": "gate", "access": "private"], false), (Profile.car, ["barrier": "gate", "access": "no"], true),
        (Profile.bicycle, ["barrier": "bollard"], false), (Profile.bicycle, ["barrier": "fence"], true),
        (Profile.pedestrian, ["barrier": "bollard"], false), (Profile.pedestrian, ["barrier": "wall"], true),
    ] as [(Profile, [String: String], Bool)])
    func barriers(profile: Profile, tags: [String: String], blocked: Bool) {
        #expect(profile.isBlocked(byNode: Tags(tags)) == blocked)
    }
}
