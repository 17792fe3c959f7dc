import HTTPServer
import MapsAPI
import MapsService

/// The query parameters of Calculate Route: those read (the README's conformance table lists
/// each), TomTom's that are refused, and `report=effectiveSettings`.
extension RoutingHandlers {
    /// Every query parameter the handler reads, with the value it takes when absent (nil: none).
    static let parameters: [(name: String, default: String?)] = [
        ("key", nil), ("travelMode", "car"), ("routeType", "fastest"), ("traffic", "true"), ("departAt", nil), ("arriveAt", nil),
        ("maxAlternatives", "0"), ("computeBestOrder", "false"), ("avoid", nil), ("strictAvoid", "false"),
        ("windingness", "normal"), ("hilliness", "normal"), ("instructionsType", nil), ("routeRepresentation", "polyline"),
        ("computeTravelTimeFor", "none"), ("report", nil), ("language", "en-GB"), ("units", "metric"), ("vehicleHeading", nil),
        ("sectionType", "travelMode"), ("vehicleMaxSpeed", "0"), ("callback", nil),
    ]

    /// TomTom's parameters this server does not act on: a 400 naming them rather than a route
    /// that ignores them.
    static let refusedParameters = [
        "alternativeType", "minDeviationDistance", "minDeviationTime", "supportingPointIndexOfOrigin", "guidanceVersion",
        "instructionAnnouncementPoints", "instructionPhonetics", "instructionRoadShieldReferences", "extendedRouteRepresentation",
        "includeTollPaymentTypes", "vehicleHasElectricTollCollectionTransponder", "vehicleWeight", "vehicleAxleWeight",
        "vehicleNumberOfAxles", "vehicleLength", "vehicleWidth", "vehicleHeight", "vehicleCommercial", "vehicleLoadType",
        "vehicleAdrTunnelRestrictionCode", "vehicleEngineType", "constantSpeedConsumptionInLitersPerHundredkm",
        "currentFuelInLiters", "auxiliaryPowerInLitersPerHour", "fuelEnergyDensityInMJoulesPerLiter", "accelerationEfficiency",
        "decelerationEfficiency", "uphillEfficiency", "downhillEfficiency", "constantSpeedConsumptionInkWhPerHundredkm",
        "currentChargeInkWh", "maxChargeInkWh", "auxiliaryPowerInkW", "consumptionInkWhPerKmAltitudeGain",
        "recuperationInkWhPerKmAltitudeLoss",
    ]

    /// The `sectionType`s answered (TomTom's names; TRAVEL_MODE is always there).
    static let sectionTypes = ["travelMode", "toll", "tollRoad", "ferry", "motorway", "tunnel", "unpaved", "pedestrian", "traffic", "lanes"]

    static func isSectionType(_ name: String) -> Bool { sectionTypes.contains { $0.lowercased() == name.lowercased() } }
}

/// TomTom's `report=effectiveSettings`: every parameter with the value the route was planned
/// with, the defaults of those not sent included.
enum EffectiveSettings {
    static func of(_ request: HTTPRequest, query: RouteQuery, response: CalculateRouteResponse) -> [CalculateRouteResponse.KeyValue] {
        var settings: [CalculateRouteResponse.KeyValue] = [
            .init(key: "contentType", value: request.pathParameters["contentType"] ?? "json"),
            .init(key: "locations", value: request.pathParameters["locations"] ?? ""),
        ]
        for (name, fallback) in RoutingHandlers.parameters where name != "key" && name != "callback" {
            let given = request.query.values(name)
            if name == "departAt", query.arriveAt == nil, let departure = response.routes.first?.summary.departureTime {
                settings.append(.init(key: name, value: departure))
            } else if !given.isEmpty {
                settings.append(.init(key: name, value: given.joined(separator: ",")))
            } else if let fallback {
                settings.append(.init(key: name, value: fallback))
            }
        }
        return settings.sorted { $0.key < $1.key }
    }
}

/// The TomTom query parameters each handler takes, as the code reads them (the README's API
/// conformance table must have a row for each).
public enum TomTomParameters {
    public static var calculateRoute: [String] { RoutingHandlers.parameters.map(\.name) }
    /// TomTom's parameters Calculate Route answers with a 400 naming them.
    public static var calculateRouteRefused: [String] { RoutingHandlers.refusedParameters }
}
