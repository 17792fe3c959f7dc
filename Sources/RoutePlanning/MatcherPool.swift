import Synchronization
import RoadNetwork
import Routing
import MapMatching

/// Map matchers for one graph, shared by concurrent requests: the free-flow fastest metric (the
/// route between two fixes is the one a driver would take) and its customized hierarchy are made
/// on first use and shared; each matcher owns its search memory.
final class MatcherPool: @unchecked Sendable {
    let graph: RoadGraph
    let structure: CCHStructure?
    private let shared = Mutex<(metric: Metric, hierarchy: CCHMetric?)?>(nil)
    private let free = Mutex<[MapMatcher]>([])

    init(graph: RoadGraph, structure: CCHStructure?) {
        self.graph = graph
        self.structure = structure
    }

    func withMatcher<R>(_ parameters: MatchParameters, _ body: (MapMatcher) throws -> R) rethrows -> R {
        let matcher = free.withLock { $0.popLast() } ?? makeMatcher()
        defer { free.withLock { $0.append(matcher) } }
        matcher.parameters = parameters
        return try body(matcher)
    }

    private func makeMatcher() -> MapMatcher {
        let (metric, hierarchy) = shared.withLock { cached in
            if let cached { return cached }
            let metric = Metric.fastest(graph)
            let made = (metric, structure.map { CCHMetric(structure: $0, turnWeight: metric.turnWeight) })
            cached = made
            return made
        }
        // Turning around costs what a U-turn at a node costs a car (the profile's 20 s).
        let turnAround: UInt32 = 20_000
        return MapMatcher(router: TransitionRouter(graph: graph, metric: metric, hierarchy: hierarchy, turnAroundKey: turnAround))
    }
}
