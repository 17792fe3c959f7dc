import OSMPBF
import RoadNetwork

/// A stop or give-way sign on a node, read as OSRM's profiles read these obstacles:
/// `direction=forward|backward` keeps it to traffic arriving along (or against) the way's node
/// order, and `stop=minor` holds only traffic arriving by a road slower than another at the node.
struct YieldSign: Sendable {
    /// The `highway` value: `stop` or `give_way`.
    var kind: String
    /// nil where no direction is tagged.
    var direction: SignalDirection?
    var minorOnly: Bool

    init?(_ tags: Tags) {
        guard let highway = tags["highway"], highway == "stop" || highway == "give_way" else { return nil }
        kind = highway
        switch tags["direction"] {
        case "forward": direction = .forward
        case "backward": direction = .backward
        case "both": direction = .both
        default: direction = nil
        }
        minorOnly = highway == "stop" && tags["stop"] == "minor"
    }
}

extension GraphAssembly {
    /// Whether graph building must keep node `n` for its sign: this profile pays at it.
    func keepsYieldSign(_ n: Int) -> Bool {
        x.nodeYieldSigns[Int32(n)].map { (profile.yieldSeconds[$0.kind] ?? 0) > 0 } ?? false
    }

    /// Seconds the sign at graph node `v` costs the move from `arc` into `out` at a node with
    /// `roads` roads. As car.lua: a stop without a direction on a node between two roads counts for
    /// traffic heading to the junction it stands before, not for traffic leaving it (the sign
    /// stands within 20 m of that junction: the road behind is short, the one ahead is not).
    func yieldSeconds(arriving arc: ArcID, into out: ArcID, at v: Int, roads: Int, outs: ArraySlice<ArcID>) -> Double {
        guard let sign = x.nodeYieldSigns[extractorNodeOf[v]], let seconds = profile.yieldSeconds[sign.kind], seconds > 0 else { return 0 }
        let backward = b.arcEdge[arc.index] & 1 == 1
        switch sign.direction {
        case .forward?: if backward { return 0 }
        case .backward?: if !backward { return 0 }
        case .both?, nil: break
        }
        if sign.minorOnly {
            let own = speed(arc)
            let others = outs.filter { $0 != twin(arc) }.map(speed)
            guard let fastest = others.max(), fastest > own else { return 0 }
        }
        if sign.kind == "stop", sign.direction == nil, roads == 2, lengthMeters(arc) < 20, lengthMeters(out) > 20 { return 0 }
        return seconds
    }

    private func lengthMeters(_ a: ArcID) -> Double { Double(b.edgeLengthCm[Int(b.arcEdge[a.index] >> 1)]) / 100 }

    /// Metres per second on the arc (its length over its duration).
    private func speed(_ a: ArcID) -> Double {
        lengthMeters(a) * 1000 / max(1, Double(b.arcDurationMs[a.index]))
    }
}
