import Foundation
import Synchronization
import RoadNetwork
import Routing
import Traffic

/// What a routing engine is made of, fixed for a dataset's lifetime.
final class RoutingEngineCore: @unchecked Sendable {
    let mode: TravelMode
    let graph: RoadGraph
    let structure: CCHStructure?
    let model: TrafficModel
    let planner: RoutePlanner
    /// The network's extent (degrees × 10⁷), so reach searches know when a budget covers it all.
    let networkBounds: (minLat: Int32, maxLat: Int32, minLon: Int32, maxLon: Int32)
    let matchers: MatcherPool
    /// Lower bounds over the week and a few bands of it, for time-dependent potentials (modes
    /// that take traffic, with a hierarchy); remade when learned profiles change bands made from
    /// other profiles (snapshots keep the ones their table was made with).
    var potentials: TimeDependentPotentials? { potentialStore.withLock { $0 } }
    private let potentialStore: Mutex<TimeDependentPotentials?>
    /// How many bands `potentials` customizes besides the week (each costs one metric's memory).
    static let potentialBands = 4
    private let curvatureStore = Mutex<[Float]?>(nil)

    init(graph: RoadGraph, structure: CCHStructure?, timeZone: TimeZone, historical: SegmentProfiles?, learned: SegmentProfiles?,
         demoCongestion: Bool) {
        mode = graph.mode
        self.graph = graph
        self.structure = structure
        let traffic = graph.mode.usesTraffic
        model = TrafficModel(graph: graph, timeZone: timeZone, historical: traffic ? historical : nil, learned: traffic ? learned : nil,
                             demoCongestion: traffic && demoCongestion)
        planner = RoutePlanner(graph: graph, metric: .fastest(graph))
        var b = (minLat: Int32.max, maxLat: Int32.min, minLon: Int32.max, maxLon: Int32.min)
        for c in graph.nodeCoordinates {
            b = (min(b.minLat, c.latitudeE7), max(b.maxLat, c.latitudeE7), min(b.minLon, c.longitudeE7), max(b.maxLon, c.longitudeE7))
        }
        networkBounds = b
        matchers = MatcherPool(graph: graph, structure: structure)
        potentialStore = Mutex(Self.makePotentials(graph: graph, structure: structure, model: model))
    }

    static func makePotentials(graph: RoadGraph, structure: CCHStructure?, model: TrafficModel,
                               layer: TrafficModel.LearnedLayer? = nil) -> TimeDependentPotentials? {
        guard let structure, graph.mode.usesTraffic else { return nil }
        let (table, _) = model.table(referenceTime: Date(timeIntervalSince1970: 0), updates: [], layer: layer)
        // Bands only pay where profiles other than learned ones vary over the week: learned slots
        // are never faster than free flow, so the week's free-flow bounds hold for them.
        return TimeDependentPotentials(graph: graph, structure: structure, table: table, bandCount: model.hasBaseProfiles ? potentialBands : 0)
    }

    /// New learned profiles, matched to arcs and bounded, not yet in force (see `install`).
    struct StagedLearning: @unchecked Sendable {
        let layer: TrafficModel.LearnedLayer
        /// Bounds made again from the new profiles (only where other profiles vary: `hasBaseProfiles`).
        let potentials: TimeDependentPotentials?
    }

    /// Prepares new learned profiles. Learned slots are never faster than free flow, so bounds
    /// made from free flow still hold; bounds made from other profiles are made again.
    func stageLearned(_ learned: SegmentProfiles?) -> StagedLearning? {
        guard mode.usesTraffic else { return nil }
        let layer = model.layering(learned)
        let potentials = model.hasBaseProfiles ? Self.makePotentials(graph: graph, structure: structure, model: model, layer: layer) : nil
        return StagedLearning(layer: layer, potentials: potentials)
    }

    /// Puts staged learned profiles in force: tables and snapshots made afterwards use them.
    func install(_ staged: StagedLearning) {
        model.install(staged.layer)
        if model.hasBaseProfiles { potentialStore.withLock { $0 = staged.potentials } }
    }

    /// Curviness per arc (degrees of heading change per km), computed once on first use.
    var curvature: [Float] {
        if let c = curvatureStore.withLock({ $0 }) { return c }
        let c = MetricFactory.curvature(graph)
        curvatureStore.withLock { $0 = c }
        return c
    }
}

/// One travel mode's routing: the graph, its hierarchy, and the current traffic snapshot, which
/// `refresh` replaces atomically when live updates change or time moves on.
final class RoutingEngine: @unchecked Sendable {
    let core: RoutingEngineCore
    private let current: Mutex<TrafficSnapshot>
    private let generation = Atomic<Int>(0)
    let searchScratch: ScratchPool
    let cchScratch: CCHScratchPool
    let timeDependentScratch: TimeDependentScratchPool
    let oneToAllScratch: ObjectPool<OneToAllScratch>
    let matrixScratch: ObjectPool<TimeDependentManyToMany.Scratch>
    /// What the time-dependent searches did since the engine was made (for benchmarks).
    let timeDependentTotals = Mutex(TimeDependentRouting.Statistics())

    init(core: RoutingEngineCore, now: Date, updates: [LiveUpdate]) {
        self.core = core
        searchScratch = ScratchPool(capacity: core.graph.arcCount)
        cchScratch = CCHScratchPool(nodeCount: core.structure?.nodeCount ?? 1)
        timeDependentScratch = TimeDependentScratchPool(capacity: core.graph.arcCount)
        let nodes = core.structure?.nodeCount ?? 1
        oneToAllScratch = ObjectPool { OneToAllScratch(nodeCount: nodes) }
        let graph = core.graph
        matrixScratch = ObjectPool { TimeDependentManyToMany.Scratch(graph: graph) }
        current = Mutex(Self.makeSnapshot(core, generation: 0, now: now, updates: updates))
    }

    var snapshot: TrafficSnapshot { current.withLock { $0 } }
    var graph: RoadGraph { core.graph }

    static func makeSnapshot(_ core: RoutingEngineCore, generation: Int, now: Date, updates: [LiveUpdate],
                             previous: TrafficSnapshot? = nil) -> TrafficSnapshot {
        let relevant = core.mode.usesTraffic ? updates : []
        var (table, report) = core.model.table(referenceTime: now, updates: relevant)
        if !core.mode.usesTraffic { table.useHistorical = false }
        var historical = table
        historical.useLive = false
        let snapshot = TrafficSnapshot(generation: generation, createdAt: now, table: table, historicalTable: historical,
                                       updates: relevant, report: report, engine: core, previous: previous)
        _ = snapshot.prepared(.fastest)  // the default metric is ready before the snapshot is published
        return snapshot
    }

    /// Builds a new snapshot and publishes it; queries already running keep the one they took.
    @discardableResult
    func refresh(now: Date, updates: [LiveUpdate]) -> TrafficSnapshot {
        let g = generation.add(1, ordering: .relaxed).newValue
        let snapshot = Self.makeSnapshot(core, generation: g, now: now, updates: updates, previous: self.snapshot)
        current.withLock { $0 = snapshot }
        return snapshot
    }
}

/// The routing engines of a dataset's profiles, each made on first use: a server asked only for
/// car routes holds only the car engine's memory (its traffic tables, metrics and scratch).
final class RoutingEngines: @unchecked Sendable {
    let graphs: [TravelMode: RoadGraph]
    private let hierarchies: [TravelMode: CCHStructure]
    private let timeZone: TimeZone
    private let historical: SegmentProfiles?
    private let learner: SpeedLearner
    private let demoCongestion: Bool
    private let engines = Mutex<[TravelMode: RoutingEngine]>([:])

    init(graphs: [TravelMode: RoadGraph], hierarchies: [TravelMode: CCHStructure], timeZone: TimeZone,
         historical: SegmentProfiles?, learner: SpeedLearner, demoCongestion: Bool) {
        self.graphs = graphs
        self.hierarchies = hierarchies
        self.timeZone = timeZone
        self.historical = historical
        self.learner = learner
        self.demoCongestion = demoCongestion
    }

    func existing(_ mode: TravelMode) -> RoutingEngine? { engines.withLock { $0[mode] } }

    /// The mode made before the first request: car when there is one.
    var firstMode: TravelMode? { graphs[.car] != nil ? .car : graphs.keys.sorted { $0.rawValue < $1.rawValue }.first }

    /// The engines made so far, in a fixed order.
    var made: [(mode: TravelMode, engine: RoutingEngine)] {
        engines.withLock { $0.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) } }
    }

    /// Makes (or returns) the engine of `mode` on the traffic given; nil when there is no such graph.
    @discardableResult
    func make(_ mode: TravelMode, now: Date, updates: [LiveUpdate]) -> RoutingEngine? {
        if let e = existing(mode) { return e }
        guard let graph = graphs[mode] else { return nil }
        let core = RoutingEngineCore(graph: graph, structure: hierarchies[mode], timeZone: timeZone, historical: historical,
                                     learned: learner.profiles(), demoCongestion: demoCongestion)
        let engine = RoutingEngine(core: core, now: now, updates: updates)
        engines.withLock { $0[mode] = engine }
        return engine
    }
}
