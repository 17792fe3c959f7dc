public import RoadNetwork
public import Routing

/// The names the APIs give domain values, in one place: TomTom's (also time to leave's) and OSRM's.
public enum Vocabulary {
    /// TomTom `travelMode`.
    public static let travelModes: [String: TravelMode] = ["car": .car, "taxi": .taxi, "bicycle": .bicycle, "pedestrian": .pedestrian]

    /// OSRM profiles, with the aliases OSRM's own profiles and clients use.
    public static let osrmProfiles: [String: TravelMode] = [
        "driving": .car, "car": .car, "taxi": .taxi, "cycling": .bicycle, "bike": .bicycle, "bicycle": .bicycle,
        "walking": .pedestrian, "foot": .pedestrian, "pedestrian": .pedestrian, "cyclability": .bicycle,
    ]

    /// The OSRM `mode` of a route's steps.
    public static func osrmMode(_ mode: TravelMode) -> String {
        switch mode {
        case .car, .taxi: "driving"
        case .bicycle: "cycling"
        case .pedestrian: "walking"
        }
    }

    /// TomTom `routeType` (`short` is TomTom's older name of `shortest`).
    public static let routeTypes: [String: RouteType] = [
        "fastest": .fastest, "shortest": .shortest, "short": .shortest, "eco": .eco, "thrilling": .thrilling,
    ]

    /// What a TomTom route type means for a mode. For a bicycle, `eco` is the quiet route (fuel
    /// means nothing on a bicycle; exposure to motor traffic does) and `thrilling` (winding roads
    /// for drivers) has no meaning: nil. Other modes keep the type.
    public static func routeType(_ type: RouteType, for mode: TravelMode) -> RouteType? {
        guard mode == .bicycle else { return type }
        switch type {
        case .eco: return .quiet
        case .thrilling: return nil
        default: return type
        }
    }

    public static let bicycleThrillingRefusal = "routeType thrilling is for motor vehicles; a bicycle takes fastest, shortest or eco (the quiet route)"

    /// OSRM profiles that name a route type besides a mode: `cyclability`, OSRM bicycle.lua's
    /// other weight, is the quiet bicycle route.
    public static let osrmRouteTypes: [String: RouteType] = ["cyclability": .quiet]

    /// TomTom `avoid`.
    public static func avoidance(_ name: String) -> Avoidance? { Avoidance(rawValue: name) }

    public static let avoidanceNames = "tollRoads, motorways, ferries, unpavedRoads or alreadyUsedRoads"

    /// OSRM `exclude` classes (those of OSRM's car profile), each a strict avoidance.
    public typealias OSRMExclude = Avoidance
    public static let osrmExcludes: [String: Avoidance] = ["motorway": .motorways, "toll": .tollRoads, "ferry": .ferries]
}

extension Vocabulary {
    /// TomTom `windingness` (for thrilling routes).
    public static func windingness(_ name: String) -> Windingness? { Windingness(rawValue: name) }
}
