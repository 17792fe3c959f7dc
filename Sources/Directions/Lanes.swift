import RoadNetwork

/// Lanes from `turn:lanes` (`left|through;right|right`), marked for the way the route goes.
enum Lanes {
    static func parse(_ tagged: String) -> [[String]] {
        tagged.split(separator: "|", omittingEmptySubsequences: false).map { lane in
            let marks = lane.split(separator: ";").map { String($0).trimmingCharacters() }.filter { !$0.isEmpty }
            return marks.isEmpty ? ["none"] : marks
        }
    }

    /// Every lane with the ones the route can use marked valid; empty when no lane fits the turn
    /// (the tags then describe another junction).
    static func guide(_ tagged: String, direction: TurnDirection, drivingSide: DrivingSide) -> [Lane] {
        let lanes = parse(tagged)
        guard lanes.count >= 1, lanes.count <= 16 else { return [] }
        for wanted in preferences(direction, drivingSide) {
            let valid = lanes.map { lane in lane.contains { wanted.contains($0) } }
            if valid.contains(true) { return zip(lanes, valid).map { Lane(indications: $0, valid: $1) } }
        }
        return []
    }

    /// The markings that fit a turn, best first.
    static func preferences(_ d: TurnDirection, _ side: DrivingSide) -> [Set<String>] {
        switch d {
        case .straight: [["through"], ["none"]]
        case .slightRight: [["slight_right"], ["right"], ["through"]]
        case .right: [["right"], ["slight_right", "sharp_right"]]
        case .sharpRight: [["sharp_right"], ["right"]]
        case .slightLeft: [["slight_left"], ["left"], ["through"]]
        case .left: [["left"], ["slight_left", "sharp_left"]]
        case .sharpLeft: [["sharp_left"], ["left"]]
        case .uTurn: [["reverse"], side == .right ? ["left"] : ["right"]]
        }
    }
}
