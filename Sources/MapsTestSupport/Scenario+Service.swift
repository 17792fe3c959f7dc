public import Foundation
public import MapsService
import Dataset
import DatasetImport
import OSMPBF
public import RoadExtract
public import RoutePlanning

/// A clock tests move by hand.
public final class TestClock: @unchecked Sendable {
    private var current: Date
    private let lock = NSLock()

    public init(_ date: Date) { current = date }

    public var now: Date { lock.lock(); defer { lock.unlock() }; return current }

    public func advance(by seconds: TimeInterval) { lock.lock(); current += seconds; lock.unlock() }
    public func set(_ date: Date) { lock.lock(); current = date; lock.unlock() }
}

extension Scenario {
    /// The drawn map as a real dataset (written as .osm.pbf, imported, CCH built) served by a
    /// `MapsService` that reads `clock`, so tests exercise exactly what the server runs.
    /// `prepare` may write traffic files into the dataset's state folder before the service opens.
    public func service(clock: TestClock, profiles: [Profile] = [.car, .pedestrian], timeZone: String = "Europe/Helsinki",
                        timeModel: TimeModelSettings = TimeModelSettings(),
                        prepare: (String) throws -> Void = { _ in }) throws -> MapsService {
        let dir = Fixtures.temporaryDirectory("wayfinder-scenario")
        let pbf = dir.appendingPathComponent("map.osm.pbf").path
        try writePBF(to: pbf)
        var options = DatasetImporter.Options(extractPath: pbf, outputPath: dir.appendingPathComponent("dataset").path)
        options.profiles = profiles
        options.timeZone = timeZone
        options.skipPlaces = true
        _ = try DatasetImporter(options: options).run()
        let datasetPath = dir.appendingPathComponent("dataset").path
        try prepare(datasetPath + "/state")
        return try MapsService(dataset: try Dataset(path: datasetPath), clock: { clock.now }, timeModel: timeModel)
    }

    /// OSM node id of a drawn letter (for traffic files keyed by node pairs).
    public func osmID(_ c: Character) -> Int64 { nodeIDs[c]! }
}

public import MapsAPI
import GeoCore

extension Scenario {
    /// The drawn letters a response's route passes (points rounded to 1e-5° are matched within 2 m).
    public func nodes(_ route: RouteBody) -> String {
        var out = ""
        for leg in route.legs {
            for p in leg.points ?? [] {
                let c = Coordinate(latitude: p.latitude, longitude: p.longitude)
                guard let (letter, _) = map.positions.filter({ $0.key.isLetter })
                    .map({ ($0.key, Geodesy.distanceMeters($0.value, c)) }).min(by: { $0.1 < $1.1 }),
                      Geodesy.distanceMeters(map.positions[letter]!, c) < 2 else { continue }
                if out.last != letter { out.append(letter) }
            }
        }
        return out
    }

    /// A route query between drawn points.
    public func query(_ stops: [Character], mode: RoadNetworkMode = .car) -> RouteQuery {
        RouteQuery(waypoints: stops.map { map[$0]! }, mode: mode)
    }
}

public typealias RoadNetworkMode = RoadNetwork.TravelMode
public import RoadNetwork
