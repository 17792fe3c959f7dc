public import Foundation
public import Dataset
public import MapsAPI
public import RoadNetwork
public import RoutePlanning
public import Places

/// The application layer shared by the CLI and the HTTP server: a dataset in, API documents out.
/// Routing goes through the planning engine; places through the places index; this layer checks
/// requests, calls them, and makes their domain answers into MapsAPI documents. It knows nothing
/// of HTTP; handlers and commands translate their inputs into its queries.
public final class MapsService: @unchecked Sendable {
    public let dataset: Dataset
    /// Routing, re-timing and live traffic on the dataset's graphs.
    public let planning: PlanningEngine
    /// The places index, when the dataset has one.
    public let places: (any PlaceStore)?
    /// What one request may ask for.
    public let limits: ServiceLimits
    /// Road speeds learned from probe vehicles (`ingestProbes`).
    public let probes = ProbeFeed()

    /// - Parameters:
    ///   - timeModel: demo congestion (off by default) and what learned speeds need.
    ///   - graphsReady: for a dataset opened with its graph check deferred: what routing waits
    ///     for before it first reads a mode's columns (see `PlanningEngine.init`).
    /// Fails when the dataset lists a places index that cannot be opened (a damaged or missing
    /// file is not "no places index").
    public init(dataset: Dataset, clock: @escaping @Sendable () -> Date = { Date() }, limits: ServiceLimits = ServiceLimits(),
                timeModel: TimeModelSettings = TimeModelSettings(), graphsReady: (@Sendable (TravelMode) -> Void)? = nil) throws(APIError) {
        self.dataset = dataset
        self.limits = limits
        planning = PlanningEngine(graphs: dataset.graphs, hierarchies: dataset.hierarchies, timeZone: dataset.timeZone,
                                  stateFolder: dataset.stateFolder, timeModel: timeModel, clock: clock, graphsReady: graphsReady)
        if let entry = dataset.manifest.files["places.sqlite"] {
            let path = dataset.layout.root + "/" + entry.path
            do {
                places = try SQLitePlaceStore(path: path)
            } catch {
                throw APIError(.unavailable, "the places index \(path) cannot be opened: \(error)")
            }
        } else {
            places = nil
        }
    }

    public var timeZone: TimeZone { dataset.timeZone }
    /// The dataset's `state/` folder: live traffic, tiles, time-to-leave watches; kept by re-imports.
    public var stateFolder: String { dataset.stateFolder }

    /// Place names as time to leave resolves them: the best match of the places index.
    public var placeLookup: @Sendable (String) throws(APIError) -> WatchPlace? {
        { [self] text throws(APIError) in try firstPlace(named: text) }
    }
    /// The clock every time-related decision reads (replaceable for tests and replays).
    public var clock: @Sendable () -> Date { planning.clock }

    func graph(_ mode: TravelMode) throws(APIError) -> RoadGraph {
        guard let graph = planning.graph(mode) else {
            throw .badInput("this dataset has no \(mode.rawValue) graph (it has: \(dataset.manifest.profiles.joined(separator: ", ")))",
                            parameter: "travelMode")
        }
        return graph
    }
}
