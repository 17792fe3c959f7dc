public import RoadNetwork
public import OSMPBF

/// How one kind of road user reads OpenStreetMap: a table of facts and rules, not code.
///
/// The evaluation that applies these tables to a way's or node's tags is shared by every profile
/// (`Profile+Ways.swift`, `Profile+Nodes.swift`); a profile only states which roads it may use,
/// how fast, which tags grant or deny access, and what turns cost. The four built-in profiles are
/// in `Profiles/`.
public struct Profile: Sendable {
    public var mode: TravelMode

    // MARK: Which ways, how fast

    /// Routable `highway=*` values and their speeds, km/h.
    public var highwaySpeedsKmh: [String: Double]
    /// Highways routable only where the country's law opens them (`CountryAccess`, `Extractor.applyCountry`), km/h.
    public var countryHighwaySpeedsKmh: [String: Double] = [:]
    /// `service=*` subtypes that override the `highway=service` speed, km/h.
    public var serviceSpeedsKmh: [String: Double] = [:]
    /// `bridge=*` values crossed at their own speed whatever the road, waits included, km/h; a tagged
    /// `duration` wins (car.lua's `bridge_speeds`: a movable bridge at 5).
    public var bridgeSpeedsKmh: [String: Double] = [:]
    /// Whether fastest routes weigh this mode's ways by OSRM car.lua's rate penalties
    /// (`ratePercents`): a narrow, single-lane or unmarked two-way road, a side road, the
    /// yielding direction of a `priority` road and the `servicePenalties` subtypes count for less than their speed.
    public var ratePenalties = false
    /// Share of its speed a `service=*` subtype is worth to fastest routes (car.lua's `service_penalties`).
    public var servicePenalties: [String: Double] = [:]
    /// Highways usable only by walking beside the vehicle (a bicycle pushed on a footway), km/h.
    public var pushingSpeedsKmh: [String: Double] = [:]
    /// `route=*` values usable as ways (ferries, car trains), km/h when no `duration` is tagged.
    public var routeSpeedsKmh: [String: Double] = [:]
    /// Speed for a way whose highway type is not in the table but that grants this mode access explicitly.
    public var accessGrantedSpeedKmh: Double?
    /// Tag values that exclude a way outright (`area=yes`, `oneway=reversible`, `highway=construction`, …).
    public var excludedTags: [String: Set<String>] = [:]
    /// When set, a way with a `construction=*` value outside these is under works and excluded
    /// (OSRM car.lua's `construction_whitelist`: `highway=trunk, construction=trunk` is closed,
    /// `construction=minor` is not); nil: `construction=*` alone excludes nothing.
    public var openConstructionValues: Set<String>?

    /// Multiply a tagged `maxspeed` by this to get the expected speed (OSRM's car uses 0.8); nil ignores maxspeed.
    public var maxspeedFactor: Double?
    /// Caps by `surface=*`, `tracktype=*` and `smoothness=*`, km/h.
    public var surfaceSpeedCapsKmh: [String: Double] = [:]
    public var tracktypeSpeedCapsKmh: [String: Double] = [:]
    public var smoothnessSpeedCapsKmh: [String: Double] = [:]

    // MARK: Access

    /// Access keys from the most general to the most specific (`access`, `vehicle`, `motor_vehicle`, `motorcar`);
    /// the most specific one present decides.
    public var accessKeys: [String]
    public var accessDenied: Set<String> = ["no", "agricultural", "forestry", "emergency", "military", "delivery_only"]
    /// Values that allow the way only to begin or end a route on it, never to pass through (OSRM's
    /// `restricted_access_tag_list`: a private court is where a trip starts, not a shortcut).
    public var accessRestricted: Set<String> = ["private", "destination", "delivery", "customers"]
    /// Whether a way reached only through `psv`/`taxi`/`bus` keys counts as a psv-only way.
    public var psvKeys: Set<String> = []

    // MARK: Direction

    /// Whether this mode obeys `oneway=*` at all.
    public var obeysOneway: Bool
    /// Oneway keys from the most specific to the most general (`oneway:bicycle`, then `oneway`).
    public var onewayKeys: [String]
    /// Highways that are one-way unless tagged otherwise.
    public var impliedOnewayHighways: Set<String> = []
    /// `junction=*` values that are one-way (roundabouts).
    public var impliedOnewayJunctions: Set<String> = []
    /// Tags that allow travel against a one-way (`busway=opposite_lane`; cycle lanes are `cycleLanes`).
    public var contraflowTags: [String: Set<String>] = [:]

    // MARK: Cycling (`Profile+Cycleways.swift`)

    /// Pace of walking beside the vehicle where riding is not allowed but walking is: against a
    /// one-way without a contraflow exception, and on ways tagged as in `dismountTags`; nil never walks.
    public var walkingSpeedKmh: Double?
    /// Tags that make the rider get off and push (`bicycle=dismount`).
    public var dismountTags: [String: Set<String>] = [:]
    /// Tags that say this mode's lane is mapped as its own way (`cycleway=separate`): the road is
    /// not used unless `separateOverrides` grants access explicitly.
    public var separateTags: [String: Set<String>] = [:]
    public var separateOverrides: [String: Set<String>] = [:]
    /// Values of `cycleway`, `cycleway:both`, `cycleway:left` and `cycleway:right` that are a lane or
    /// track for this mode, and those that run against a one-way (`opposite_lane`). The directions a
    /// lane serves (`cycleLanes`) are ridden at the speed of `highway=cycleway`, against a one-way
    /// and on roads outside `highwaySpeedsKmh` (a trunk road with `cycleway:right=track`) too.
    public var cycleLaneValues: Set<String> = []
    public var oppositeLaneValues: Set<String> = []
    /// Tags that grant access when no access key speaks (`bicycle_road=yes`, `cyclestreet=yes`).
    public var impliedAccessTags: [String: Set<String>] = [:]
    /// Relations whose ways count as made for this mode (`route=bicycle`): a preference of quiet
    /// routes (`WayFlags.cycleFriendly`), never a requirement.
    public var cycleRouteTags: [String: Set<String>] = [:]
    /// Steps this mode carries the vehicle on: those with a ramp (`ramp:bicycle=yes`) at the
    /// pushing speed, and short flights (`step_count` at most `carriedStepsMaxCount`, or untagged)
    /// at `carriedStepsSpeedKmh` plus `carriedStepsPenaltySeconds`.
    public var stepRampTags: [String: Set<String>] = [:]
    public var carriedStepsMaxCount: Int?
    public var carriedStepsSpeedKmh: Double = 2
    public var carriedStepsPenaltySeconds: Double = 0

    // MARK: Nodes

    /// Barriers this mode passes; any other `barrier=*` stops it.
    public var passableBarriers: Set<String>
    /// When non-empty, only these barriers stop the mode (walking and cycling pass most barriers).
    public var blockingBarriers: Set<String> = []
    /// Seconds it takes to pass a barrier of these kinds (OSRM car.lua's `barrier_penalties`: a
    /// gate or a lift gate is stopped at, opened and closed), unless the node's access tags speak.
    public var barrierPenaltySeconds: [String: Double] = [:]
    /// Node keys that keep a traffic signal to one direction of its ways (`traffic_signals:direction`),
    /// the first present deciding (`signalDirection`); empty: a signal holds both directions.
    public var signalDirectionKeys: [String] = []
    /// Seconds a move through a `highway=stop` or `highway=give_way` node costs the traffic the sign
    /// holds (OSRM car.lua's obstacles: a stop 2 s, a give-way 1 s); empty: signs cost nothing.
    public var yieldSeconds: [String: Double] = [:]

    // MARK: Turns

    /// Restriction keys this mode obeys (`restriction`, `restriction:motorcar`, …); empty ignores restrictions.
    public var restrictionKeys: [String]
    /// Tokens in a restriction's `except=*` that exempt this mode.
    public var restrictionExemptions: Set<String>
    public var turnCosts: TurnCostModel

    /// A profile's name as used in files and URLs (`car`, `taxi`, `bicycle`, `pedestrian`).
    public var name: String { mode.rawValue }

    public static func named(_ name: String) -> Profile? {
        switch name.lowercased() {
        case "car", "driving": .car
        case "taxi": .taxi
        case "bicycle", "bike", "cycling": .bicycle
        case "pedestrian", "foot", "walking": .pedestrian
        default: nil
        }
    }

    public static let all: [Profile] = [.car, .taxi, .bicycle, .pedestrian]

    public static func profile(for mode: TravelMode) -> Profile {
        switch mode {
        case .car: .car
        case .taxi: .taxi
        case .bicycle: .bicycle
        case .pedestrian: .pedestrian
        }
    }
}

/// What turning costs, after OSRM's profiles: a curve of the turn angle, cheaper towards the kerb
/// side, plus fixed costs for U-turns and traffic signals.
public struct TurnCostModel: Sendable {
    /// `deadEndsOnly`: a U-turn where no other road leads on, or where no other road brings traffic
    /// in (the end of a two-way road where only one-ways lead away), as OSRM turns round; `anywhere`.
    public enum UTurns: Sendable { case deadEndsOnly, anywhere }
    /// How the cost grows with the angle: OSRM car.lua's sigmoid (a right angle towards the kerb is
    /// nearly free, one across traffic nearly the full penalty), or bicycle.lua's square of the angle
    /// in right angles (a right angle costs the penalty divided or multiplied by the bias).
    public enum Curve: Sendable { case sigmoid, quadratic }

    /// The cost of a sharp turn against traffic, seconds (OSRM car: 7.5); with `.quadratic`, of a right angle (bicycle: 6).
    public var turnPenaltySeconds: Double
    /// > 1 makes turns towards the kerb cheaper than turns across traffic (OSRM car: 1.075).
    public var turnBias: Double
    public var uTurnPenaltySeconds: Double
    public var trafficSignalSeconds: Double
    public var uTurns: UTurns
    public var curve: Curve = .sigmoid
    /// Added to a turn across oncoming traffic (a left turn where traffic keeps right) at a junction,
    /// for the wait for a gap, growing with the angle so that a slight bend pays almost nothing
    /// (OSRM car.lua 26.10's `oncoming_turn_penalty`, 2 s). Not on U-turns, which pay their own
    /// penalty, and not where either road is a roundabout, whose traffic runs one way.
    public var oncomingTurnSeconds: Double = 0
    /// The side traffic keeps to. On the left a turn costs what its mirror image costs on the right:
    /// car.lua's `left_hand_driving`, which inverts `turn_bias` and moves the oncoming cost to right turns.
    public var drivingSide: DrivingSide = .right
    /// Whether the import sets `drivingSide` from the dataset's country (`Extractor.applyCountry`):
    /// car.lua does; bicycle.lua keeps its bias towards the right everywhere.
    public var followsDrivingSide = false

    public static let none = TurnCostModel(turnPenaltySeconds: 0, turnBias: 1, uTurnPenaltySeconds: 0,
                                           trafficSignalSeconds: 0, uTurns: .anywhere)

    /// Seconds for turning by `angle` degrees (positive = right, ±180 = U-turn) at a node with
    /// `roads` roads; continuing along a road without a junction costs nothing.
    public func seconds(angle turnAngle: Double, roads: Int, isUTurn: Bool, signals: Bool, roundabout: Bool = false) -> Double {
        // Below, positive is towards the kerb: right where traffic keeps right, left where it keeps left.
        let angle = drivingSide == .left ? -turnAngle : turnAngle
        var cost = 0.0
        if roads > 2 || isUTurn, turnPenaltySeconds > 0 {
            switch curve {
            case .sigmoid:
                let a = abs(angle) / 180
                let exponent = angle >= 0 ? -((13 / turnBias) * a - 6.5 * turnBias) : -((13 * turnBias) * a - 6.5 / turnBias)
                cost = turnPenaltySeconds / (1 + exp(exponent))
            case .quadratic:
                let rightAngles = angle / 90
                cost = rightAngles * rightAngles * turnPenaltySeconds * (angle >= 0 ? 1 / turnBias : turnBias)
            }
        }
        if oncomingTurnSeconds > 0, angle < 0, roads > 2, !isUTurn, !roundabout {
            let sharpness = 1 / (1 + exp(-(13 * abs(angle) / 180 - 3.25)))
            cost += oncomingTurnSeconds * sharpness
        }
        if isUTurn { cost += uTurnPenaltySeconds }
        if signals { cost += trafficSignalSeconds }
        return cost
    }
}

#if canImport(Glibc)
import Glibc
#endif
