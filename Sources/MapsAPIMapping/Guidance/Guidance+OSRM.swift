public import MapsAPI
public import Directions
public import GeoCore

extension Directions.Guidance {
    /// OSRM's steps, one list per leg. `points` are the route's points, legs joined with each
    /// leg counted whole (the space `pointIndex` counts in); `geometry` writes a step's line.
    /// A roundabout or rotary is OSRM's pair of steps (entering with the exit number, then the
    /// exit); a small roundabout taken like a junction is one `roundabout turn`.
    public func osrmSteps(points: [Coordinate], geometry: ([Coordinate]) -> OSRM.Geometry) -> [[OSRM.Step]] {
        let legCount = (instructions.map(\.leg).max() ?? 0) + 1
        var legs = [[OSRM.Step]](repeating: [], count: legCount)
        for (k, ins) in instructions.enumerated() {
            let next = k + 1 < instructions.count && instructions[k + 1].leg == ins.leg ? instructions[k + 1] : ins
            let side = drivingSide == .left ? "left" : "right"
            func line(_ from: Int, _ to: Int) -> OSRM.Geometry {
                guard !points.isEmpty else { return geometry([]) }
                let a = min(from, points.count - 1), b = min(max(to, from), points.count - 1)
                return geometry(a == b ? [points[a], points[a]] : Array(points[a...b]))
            }
            let distance = next.offsetMeters - ins.offsetMeters, duration = next.elapsedSeconds - ins.elapsedSeconds
            let (type, modifier) = Self.osrmType(ins)
            if let r = ins.roundabout, ins.kind != .roundaboutTurn {
                let ring = OSRM.Step(
                    geometry: line(ins.pointIndex, r.exitPointIndex),
                    maneuver: maneuver(ins, type: type, modifier: modifier, exit: r.exitNumber, instruction: ins.message),
                    mode: ins.mode.rawValue, driving_side: side, name: ins.street, ref: refs(ins), destinations: destinations(ins),
                    rotary_name: r.rotaryName.isEmpty ? nil : r.rotaryName,
                    intersections: ins.intersections.prefix(1).map(intersection),
                    weight: round1(r.ringSeconds), duration: round1(r.ringSeconds), distance: round1(r.ringMeters))
                let back = (r.exitBearingBefore + 180) % 360, out = r.exitBearingAfter
                let exitIntersection = back <= out
                    ? OSRM.Intersection(location: Self.lonLat(r.exitPoint), bearings: [back, out], entry: [false, true], out: 1, in: 0)
                    : OSRM.Intersection(location: Self.lonLat(r.exitPoint), bearings: [out, back], entry: [true, false], out: 0, in: 1)
                let exitTurn = TurnDirection(angle: Geodesy.turnAngle(from: Double(r.exitBearingBefore), to: Double(r.exitBearingAfter)))
                let exit = OSRM.Step(
                    geometry: line(r.exitPointIndex, next.pointIndex),
                    maneuver: OSRM.Maneuver(bearing_after: r.exitBearingAfter, bearing_before: r.exitBearingBefore, location: Self.lonLat(r.exitPoint),
                                            type: "exit " + type, modifier: exitTurn.rawValue,
                                            exit: r.exitNumber, instruction: ins.exitText),
                    mode: ins.mode.rawValue, driving_side: side, name: ins.street, ref: refs(ins), destinations: destinations(ins),
                    rotary_name: r.rotaryName.isEmpty ? nil : r.rotaryName,
                    intersections: [exitIntersection] + ins.intersections.dropFirst().map(intersection),
                    weight: round1(duration - r.ringSeconds), duration: round1(duration - r.ringSeconds), distance: round1(distance - r.ringMeters))
                legs[ins.leg] += [ring, exit]
                continue
            }
            let place = ins.kind == .arrive || ins.kind == .waypoint
            legs[ins.leg].append(OSRM.Step(
                geometry: line(ins.pointIndex, place ? ins.pointIndex : next.pointIndex),
                maneuver: maneuver(ins, type: type, modifier: modifier, exit: ins.roundabout?.exitNumber, instruction: ins.stepText),
                mode: ins.mode.rawValue, driving_side: side, name: ins.street, ref: refs(ins), destinations: destinations(ins),
                exits: ins.sign.exitNumber.isEmpty ? nil : ins.sign.exitNumber,
                intersections: ins.intersections.map(intersection),
                weight: round1(duration), duration: round1(duration), distance: round1(distance)))
        }
        return legs
    }

    func maneuver(_ ins: Instruction, type: String, modifier: String?, exit: Int?, instruction: String) -> OSRM.Maneuver {
        OSRM.Maneuver(bearing_after: ins.kind == .arrive || ins.kind == .waypoint ? 0 : ins.bearingAfter,
                      bearing_before: ins.kind == .depart ? 0 : ins.bearingBefore, location: Self.lonLat(ins.point),
                      type: type, modifier: modifier, exit: exit, instruction: instruction)
    }

    func refs(_ ins: Instruction) -> String? { ins.roadNumbers.isEmpty ? nil : ins.roadNumbers.joined(separator: "; ") }
    func destinations(_ ins: Instruction) -> String? { ins.sign.destinationText.isEmpty ? nil : ins.sign.destinationText }
    func round1(_ v: Double) -> Double { (max(0, v) * 10).rounded() / 10 }

    func intersection(_ x: IntersectionSummary) -> OSRM.Intersection {
        OSRM.Intersection(location: Self.lonLat(x.location), bearings: x.bearings, entry: x.entry, out: x.outIndex, in: x.inIndex,
                          lanes: x.lanes.isEmpty ? nil : x.lanes.map { OSRM.Lane(indications: $0.indications.map(Self.osrmLane), valid: $0.valid) })
    }

    static func lonLat(_ c: Coordinate) -> [Double] { [(c.longitude * 1e6).rounded() / 1e6, (c.latitude * 1e6).rounded() / 1e6] }

    /// OSM lane markings in OSRM's words.
    static func osrmLane(_ osm: String) -> String {
        switch osm {
        case "through": "straight"
        case "reverse": "uturn"
        case "none": "none"
        default: osm.split(separator: "_").joined(separator: " ")
        }
    }

    /// OSRM's `type` and `modifier` for an instruction.
    static func osrmType(_ ins: Instruction) -> (String, String?) {
        switch ins.kind {
        case .depart: return ("depart", nil)
        case .arrive, .waypoint:
            return ("arrive", ins.maneuver == .arriveLeft || ins.maneuver == .waypointLeft ? "left"
                    : ins.maneuver == .arriveRight || ins.maneuver == .waypointRight ? "right" : nil)
        case .uTurn: return ("continue", "uturn")
        case .ferry: return ("notification", ins.direction.rawValue)
        default: return (ins.kind.rawValue, ins.direction.rawValue)
        }
    }
}
