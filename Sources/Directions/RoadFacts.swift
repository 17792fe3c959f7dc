import GeoCore
import RoadNetwork

/// A road's name as guidance compares it: the name, its road numbers and its exit number.
struct RoadName: Equatable {
    var name: String
    var refs: [String]
    var exits: String

    var isEmpty: Bool { name.isEmpty && refs.isEmpty }

    /// "Name/E12/N205", or whichever part there is.
    var display: String { ([name] + refs).filter { !$0.isEmpty }.joined(separator: "/") }

    /// The same named road (or, unnamed, sharing a road number): what "keeps the name" means for
    /// telling a branch that goes on from one that leaves.
    func isSameRoad(_ other: RoadName) -> Bool {
        if !name.isEmpty || !other.name.isEmpty { return name.lowercased() == other.name.lowercased() }
        return !refs.isEmpty && refs.contains(where: other.refs.contains)
    }

    /// Whether a driver going from `self` onto `next` needs to hear the new name: not when the
    /// name only gains or loses a road number, a suffix, or disappears, after OSRM's rules.
    func needsAnnouncing(_ next: RoadName) -> Bool {
        if isEmpty && !next.isEmpty { return true }
        let a = name.lowercased(), b = next.name.lowercased()
        let namesEmpty = a.isEmpty && b.isEmpty
        let sameName = a == b || a.hasPrefix(b) || b.hasPrefix(a)
        let nameRemoved = !a.isEmpty && b.isEmpty
        let refsA = refs.joined(separator: ";"), refsB = next.refs.joined(separator: ";")
        let refsEmpty = refsA.isEmpty && refsB.isEmpty
        let refContained = refsA.isEmpty || refsB.isEmpty || refsA.contains(refsB) || refsB.contains(refsA)
        // The very same name is the same road whatever its numbers do.
        let unchanged = (namesEmpty && refsEmpty) || (sameName && refContained) || (refContained && nameRemoved) || (!a.isEmpty && a == b)
        // A name swapped for a number (or back), or one number for another, is always said.
        let swapped = (a.isEmpty && !refsA.isEmpty && !b.isEmpty && refsB.isEmpty)
            || (!a.isEmpty && refsA.isEmpty && b.isEmpty && !refsB.isEmpty) || (namesEmpty && !refContained)
        let exitsChange = exits != next.exits && !(sameName && !exits.isEmpty && next.exits.isEmpty)
        return !unchanged || swapped || exitsChange
    }
}

/// What guidance reads about the arcs of a graph: names, classes, flags and bearings.
struct RoadFacts {
    let graph: RoadGraph

    func name(_ arc: ArcID) -> RoadName {
        let way = graph.way(of: arc)
        let ref = graph.ref(of: way)
        return RoadName(name: graph.name(of: way), refs: ref.isEmpty ? [] : RoadGraphText.list(ref),
                        exits: graph.signs(of: arc).exitNumber)
    }

    func roadClass(_ arc: ArcID) -> RoadClass { graph.wayClass[graph.way(of: arc).index] }
    func flags(_ arc: ArcID) -> WayFlags { graph.wayFlags[graph.way(of: arc).index] }
    func isPushing(_ arc: ArcID) -> Bool { graph.isPushing(arc) }
    func isRing(_ arc: ArcID) -> Bool { flags(arc).contains(.roundabout) }
    func sameWay(_ a: ArcID, _ b: ArcID) -> Bool { graph.way(of: a) == graph.way(of: b) }

    /// How important a class is for choosing the obvious way on (lower is more important). Links
    /// rank below every through road (as OSRM's link class does): they connect, they do not go on.
    func rank(_ c: RoadClass) -> Int {
        switch c {
        case .motorway: 0
        case .trunk: 1
        case .primary: 2
        case .secondary: 3
        case .tertiary: 4
        case .unclassified, .residential: 5
        case .livingStreet, .motorwayLink, .trunkLink, .primaryLink, .secondaryLink, .tertiaryLink: 6
        case .service, .track, .other: 7
        case .cycleway, .path, .footway, .pedestrian, .steps: 8
        case .ferry: 9
        }
    }

    /// A road of a clearly lesser class than another: three classes down, or two down to a
    /// residential street or less, or a minor way beside a real road.
    func isStrictlyLess(_ a: ArcID, than b: ArcID) -> Bool {
        let ra = rank(roadClass(a)), rb = rank(roadClass(b))
        return ra - rb >= 3 || (ra >= 5 && ra - rb >= 2) || (isLowPriority(a) && !isLowPriority(b))
    }

    /// Roads a driver does not count as a choice: service ways, tracks, paths.
    func isLowPriority(_ arc: ArcID) -> Bool { rank(roadClass(arc)) >= 7 }

    /// How far along a road its bearing at a junction is taken.
    static let bearingMeters = 12.0

    /// Compass bearing of an arc where it leaves its tail, over its first ~12 m.
    func departBearing(_ arc: ArcID) -> Double {
        let shape = graph.shape(of: arc)
        return Geodesy.bearingDegrees(from: shape[0], to: Self.pointAlong(shape, meters: Self.bearingMeters))
    }

    /// Compass bearing of travel as an arc arrives at its head, over its last ~12 m.
    func arriveBearing(_ arc: ArcID) -> Double {
        let shape = graph.shape(of: arc)
        let reversed = Array(shape.reversed())
        return Geodesy.bearingDegrees(from: Self.pointAlong(reversed, meters: Self.bearingMeters), to: reversed[0])
    }

    /// The point `meters` along a line (its end when shorter).
    static func pointAlong(_ points: [Coordinate], meters: Double) -> Coordinate {
        var left = meters
        for i in 1..<points.count {
            let d = Geodesy.distanceMeters(points[i - 1], points[i])
            if d >= left, d > 0 { return Geodesy.interpolate(points[i - 1], points[i], left / d) }
            left -= d
        }
        return points[points.count - 1]
    }
}

enum RoadGraphText {
    /// `a;b; c` as ["a", "b", "c"].
    static func list(_ text: String) -> [String] {
        text.split(separator: ";").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces.
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
