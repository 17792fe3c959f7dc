public import Foundation
public import GeoCore
public import OSMPBF
public import RoadNetwork
public import RoadExtract
public import Routing
public import RoutePlanning

/// A tiny road map drawn in ASCII with tagged ways, run through the same extraction code as a
/// real `.osm.pbf` (in memory: a fast, in-process gurka rather than a process-spawning cucumber),
/// and routed by the same planning engine and hierarchies as production.
///
/// ```swift
/// let s = try Scenario("""
///     a - b
///         |
///         c
///     """, ways: ["ab": ["highway": "primary"], "bc": ["highway": "residential", "oneway": "yes"]])
/// #expect(s.route("a", "c") == "abc")
/// ```
/// A way's key lists its nodes in order; its `name` defaults to that key, so routes can be
/// checked by the names of the ways they follow.
public struct Scenario: @unchecked Sendable {
    public struct Restriction: Sendable {
        public var from: String, via: String, to: String, type: String, tags: [String: String]
        public init(from: String, via: String, to: String, type: String, tags: [String: String] = [:]) {
            self.from = from; self.via = via; self.to = to; self.type = type; self.tags = tags
        }
    }

    public let map: GridMap
    public let graphs: [TravelMode: RoadGraph]
    public let block: OSMBlock
    /// The planning engine over the graphs, with a CCH for each, on a clock at Monday 03:00 UTC
    /// (every historical profile is flat then, so leave-now routes are free-flow routes).
    public let planning: PlanningEngine
    /// The same graphs planned with no hierarchy, so every static search is plain Dijkstra and
    /// every time-dependent one runs without potentials: the oracle `planning` is checked against.
    public let oracle: PlanningEngine
    let nodeIDs: [Character: Int64]

    /// Monday 2026-11-30 03:00 UTC.
    public static let quietHour = Date(timeIntervalSince1970: 1_796_007_600)

    public init(_ drawing: String, gridMeters: Double = 100, ways: KeyValuePairs<String, Tags>,
                nodes: [Character: Tags] = [:], restrictions: [Restriction] = [], relations: [(ways: [String], tags: Tags)] = [],
                profiles: [Profile] = Profile.all) throws {
        try self.init(drawing, gridMeters: gridMeters, wayList: ways.map { ($0.key, $0.value) }, nodes: nodes,
                      restrictions: restrictions, relations: relations, profiles: profiles)
    }

    /// The same with ways built at run time. `relations` are other relations (a `route=bicycle`)
    /// of the drawn ways, each member without a role.
    public init(_ drawing: String, gridMeters: Double = 100, wayList ways: [(String, Tags)],
                nodes: [Character: Tags] = [:], restrictions: [Restriction] = [], relations: [(ways: [String], tags: Tags)] = [],
                profiles: [Profile] = Profile.all) throws {
        map = try GridMap(drawing, gridMeters: gridMeters)
        var builder = OSMBlockBuilder()
        var ids: [Character: Int64] = [:]
        for (i, c) in map.positions.keys.filter(\.isLetter).sorted().enumerated() {
            ids[c] = Int64(i + 1)
            let p = map.positions[c]!
            builder.addNode(id: Int64(i + 1), latitudeE7: p.latitudeE7, longitudeE7: p.longitudeE7, tags: nodes[c] ?? Tags())
        }
        var wayIDs: [String: Int64] = [:]
        for (i, (key, tags)) in ways.enumerated() {
            var refs: [Int64] = []
            for c in key {
                guard let id = ids[c] else { throw GridMap.Error.unknownNode(c, inWay: key) }
                refs.append(id)
            }
            var t = tags
            if t["name"] == nil { t.pairs.append((key: "name", value: key)) }
            wayIDs[key] = Int64(100 + i)
            builder.addWay(id: Int64(100 + i), refs: refs, tags: t)
        }
        for (i, r) in restrictions.enumerated() {
            var members: [(type: OSMMemberType, id: Int64, role: String)] = []
            guard let from = wayIDs[r.from], let to = wayIDs[r.to] else { throw GridMap.Error.unknownNode("?", inWay: r.from + "/" + r.to) }
            members.append((.way, from, "from"))
            if r.via.count == 1, let node = ids[r.via.first!] {
                members.append((.node, node, "via"))
            } else if let way = wayIDs[r.via] {
                members.append((.way, way, "via"))
            } else {
                throw GridMap.Error.unknownNode(r.via.first ?? "?", inWay: "via")
            }
            members.append((.way, to, "to"))
            // An empty type leaves `restriction` out (for restrictions given by `restriction:conditional`).
            var tags: Tags = r.type.isEmpty ? ["type": "restriction"] : ["type": "restriction", "restriction": r.type]
            for (k, v) in r.tags.sorted(by: { $0.key < $1.key }) { tags.pairs.append((k, v)) }
            builder.addRelation(id: Int64(1000 + i), members: members, tags: tags)
        }
        for (i, r) in relations.enumerated() {
            let members = try r.ways.map { key in
                guard let id = wayIDs[key] else { throw GridMap.Error.unknownNode("?", inWay: key) }
                return (type: OSMMemberType.way, id: id, role: "")
            }
            builder.addRelation(id: Int64(2000 + i), members: members, tags: r.tags)
        }
        block = builder.block
        nodeIDs = ids
        let built = try Extractor(profiles: profiles).run(source: InMemoryOSMSource([builder.block]))
        let engines = Scenario.engines(built)
        planning = engines.planning
        oracle = engines.oracle
        graphs = Dictionary(uniqueKeysWithValues: engines.planning.modes.compactMap { m in engines.planning.graph(m).map { (m, $0) } })
    }

    /// A production planning engine (a CCH for each mode) and its Dijkstra oracle over the graphs
    /// extracted from a map, both on the quiet-hour clock.
    public static func engines(_ built: [RoadGraphBuilder]) -> (planning: PlanningEngine, oracle: PlanningEngine) {
        var graphs: [TravelMode: RoadGraph] = [:]
        var hierarchies: [TravelMode: CCHStructure] = [:]
        for g in built {
            let graph = g.build()
            graphs[g.mode] = graph
            hierarchies[g.mode] = CCHStructure.make(for: graph)
        }
        func engine(_ hierarchies: [TravelMode: CCHStructure]) -> PlanningEngine {
            PlanningEngine(graphs: graphs, hierarchies: hierarchies, timeZone: TimeZone(identifier: "UTC")!,
                           stateFolder: Fixtures.temporaryDirectory("wayfinder-scenario-state").path, clock: { Scenario.quietHour })
        }
        return (engine(hierarchies), engine([:]))
    }

    /// What a route through the drawn map looks like.
    public struct Result: Sendable {
        /// Drawn nodes passed, in order (consecutive repeats removed): "abc".
        public var nodes: String
        /// Names of the ways followed, consecutive repeats removed.
        public var ways: [String]
        public var distanceMeters: Double
        /// Seconds on empty roads (the turns included).
        public var durationSeconds: Double
        public var route: TimedRoute
    }

    /// Routes through the given drawn points (letters or digits), leaving now, as production does.
    public func routeResult(_ stops: [Character], mode: TravelMode = .car) -> Result? {
        guard let graph = graphs[mode] else { return nil }
        let points = stops.compactMap { map[$0] }
        guard points.count == stops.count, let route = planning.plan(PlanRequest(waypoints: points, mode: mode)).plan?.best else { return nil }
        return describe(route, graph: graph)
    }

    public func describe(_ route: TimedRoute, graph: RoadGraph) -> Result {
        var nodes = ""
        for c in route.points.compactMap({ map.character(at: $0) }) where nodes.last != c { nodes.append(c) }
        var ways: [String] = []
        for leg in route.legs {
            for piece in leg.arcs where piece.lengthMeters > 0.01 {
                let name = graph.name(of: graph.way(of: piece.arc))
                if ways.last != name { ways.append(name) }
            }
        }
        return Result(nodes: nodes, ways: ways, distanceMeters: route.lengthMeters,
                      durationSeconds: route.comparison.freeFlowSeconds, route: route)
    }

    /// The drawn nodes a car (or `mode`) route passes, or nil when there is no route.
    public func route(_ from: Character, _ to: Character, mode: TravelMode = .car) -> String? {
        routeResult([from, to], mode: mode)?.nodes
    }

    public func coordinate(_ c: Character) -> Coordinate { map[c]! }
}
