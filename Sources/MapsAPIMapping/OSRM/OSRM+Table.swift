public import MapsAPI
public import RoutePlanning
public import GeoCore

/// What an OSRM `/table/v1` answer shows.
public struct OSRMTableOptions: Sendable {
    /// `annotations=duration` and `distance`.
    public var durations = true
    public var distances = false
    /// Metres per second: cells without a route get the straight-line distance at this speed,
    /// from the input points or (`fallbackFromSnapped`) the snapped ones.
    public var fallbackSpeed: Double?
    public var fallbackFromSnapped = false
    /// Durations are multiplied by it.
    public var scaleFactor = 1.0

    public init() {}
}

extension OSRM.TableResponse {
    /// A matrix in OSRM's shape: seconds and metres to a tenth, `null` where no route joins the
    /// points (unless a fallback speed fills it), 0 where a source is its own destination.
    public init(_ matrix: Matrix, origins: [Coordinate], destinations: [Coordinate], sameAs: (Int, Int) -> Bool, options: OSRMTableOptions) {
        func waypoint(_ road: NearbyRoad?, _ input: Coordinate) -> OSRM.Waypoint {
            let p = road?.point ?? input
            return OSRM.Waypoint(hint: "", distance: ((road?.distanceMeters ?? 0) * 100).rounded() / 100, name: road?.roadName ?? "",
                                 location: [OSRM.round6(p.longitude), OSRM.round6(p.latitude)], nodes: nil)
        }
        var seconds = [[Double?]](), meters = [[Double?]]()
        for (i, row) in matrix.cells.enumerated() {
            var d: [Double?] = [], m: [Double?] = []
            for (j, cell) in row.enumerated() {
                if sameAs(i, j) { d.append(0); m.append(0); continue }
                if case .route(let s, let length, _, _) = cell {
                    d.append((s * options.scaleFactor * 10).rounded() / 10)
                    m.append((length * 10).rounded() / 10)
                } else if let speed = options.fallbackSpeed {
                    let a = options.fallbackFromSnapped ? matrix.origins[i]?.point ?? origins[i] : origins[i]
                    let b = options.fallbackFromSnapped ? matrix.destinations[j]?.point ?? destinations[j] : destinations[j]
                    let crow = Geodesy.distanceMeters(a, b)
                    d.append((crow / speed * options.scaleFactor * 10).rounded() / 10)
                    m.append((crow * 10).rounded() / 10)
                } else {
                    d.append(nil); m.append(nil)
                }
            }
            seconds.append(d); meters.append(m)
        }
        self.init(durations: options.durations ? seconds : nil, distances: options.distances ? meters : nil,
                  sources: zip(matrix.origins, origins).map(waypoint), destinations: zip(matrix.destinations, destinations).map(waypoint))
    }
}
