import RoadNetwork
import RoutePlanning

/// The watches held in memory, and what live traffic looked like at the last look (so that a
/// change is noticed, and only the watches whose route it touches are re-planned at once).
struct WatchRegistry: Sendable {
    struct Entry: Sendable {
        var record: WatchRecord
        /// The edges the watched route drives on the current graph (nil: not known yet).
        var edges: Set<Int>?
        /// Re-plan at the next tick (live traffic touched the route, or the dataset changed).
        var dirty = false
        /// Bumped on every change, so a re-plan computed meanwhile is not applied over a newer state.
        var version = 0
    }

    var entries: [String: Entry] = [:]
    var lastGeneration: Int?
    var liveEdges: [TravelMode: Set<Int>] = [:]

    /// What live traffic looks like now, so that the next change is seen as one. Only the modes
    /// whose engine is made count (asking the others would make theirs): a mode made later has
    /// no baseline, so all of its live edges count as changed at its first look.
    mutating func setTrafficBaseline(_ planning: PlanningEngine) {
        lastGeneration = planning.trafficGeneration
        liveEdges = [:]
        for mode in planning.preparedModes where mode.usesTraffic { liveEdges[mode] = planning.liveAffectedEdges(mode) }
    }

    /// The modes of watches that follow live traffic, and the generation last seen.
    var trafficWatch: (generation: Int?, modes: Set<TravelMode>) {
        (lastGeneration, Set(entries.values.filter { $0.record.spec.traffic && !$0.record.expired }.map(\.record.spec.travelMode)))
    }

    /// Marks for re-planning the watches whose route a traffic change touched: the edges with
    /// live data before or after it are the ones that may have changed.
    mutating func noteTrafficChange(generation: Int, live: [TravelMode: Set<Int>]) {
        lastGeneration = generation
        for (mode, edges) in live {
            let touched = edges.union(liveEdges[mode] ?? [])
            liveEdges[mode] = edges
            guard !touched.isEmpty else { continue }
            for id in entries.keys {
                let e = entries[id]!
                guard e.record.spec.travelMode == mode, e.record.spec.traffic, !e.record.expired else { continue }
                if e.edges.map({ !$0.isDisjoint(with: touched) }) ?? true { entries[id]!.dirty = true }
            }
        }
    }

    /// Every watch to be re-planned on a new graph (its edges found again there).
    mutating func invalidateRoutes() {
        for id in entries.keys {
            entries[id]!.edges = nil
            entries[id]!.dirty = !entries[id]!.record.expired
            entries[id]!.version += 1
        }
    }
}

extension PlanState {
    /// The edges of the route on the planning engine's graph, when its arcs still fit it.
    func edges(on planning: PlanningEngine) -> Set<Int>? {
        guard let path, planning.fits(path) else { return nil }
        return planning.edges(of: path)
    }
}
