public import RoadNetwork
public import OSMPBF

/// What a profile makes of one way: whether and how fast each direction may be travelled,
/// and the facts routing options and directions need.
public struct WayVerdict: Sendable, Equatable {
    /// km/h along the way's node order; 0 when that direction is not usable.
    public var forwardSpeedKmh: Double
    public var backwardSpeedKmh: Double
    public var roadClass: RoadClass
    public var flags: WayFlags
    /// Tagged crossing time of a ferry or a movable bridge, seconds.
    public var durationSeconds: Double?
    /// Whether each direction is travelled on foot beside the vehicle (a pushed bicycle).
    public var forwardPushing = false
    public var backwardPushing = false
    /// How much of each direction's speed the way is worth when choosing fastest routes, percent (`Profile.ratePercents`).
    public var forwardRatePercent: UInt8 = 100
    public var backwardRatePercent: UInt8 = 100

    /// Facts few ways have, boxed: an extract keeps every way's verdict for every profile until
    /// its graphs are built, and holding them inline more than doubled that stage's memory.
    struct Rare: Sendable, Equatable {
        var forwardCondition: ArcCondition?
        var backwardCondition: ArcCondition?
        var unsupportedConditions = 0
        var penaltySeconds = 0.0
    }
    final class RareBox: Sendable, Equatable {
        let value: Rare
        init(_ value: Rare) { self.value = value }
        static func == (a: RareBox, b: RareBox) -> Bool { a.value == b.value }
    }
    private var rareBox: RareBox?
    private var rare: Rare {
        get { rareBox?.value ?? Rare() }
        set { rareBox = newValue == Rare() ? nil : RareBox(newValue) }
    }

    /// Time-dependent closures of each direction (`access:conditional`, `oneway:conditional`).
    public var forwardCondition: ArcCondition? { get { rare.forwardCondition } set { rare.forwardCondition = newValue } }
    public var backwardCondition: ArcCondition? { get { rare.backwardCondition } set { rare.backwardCondition = newValue } }
    /// Conditional tags on the way that are not supported (treated as off).
    public var unsupportedConditions: Int { get { rare.unsupportedConditions } set { rare.unsupportedConditions = newValue } }
    /// Fixed seconds added to every arc of the way (carrying a bicycle up a flight of steps).
    public var penaltySeconds: Double { get { rare.penaltySeconds } set { rare.penaltySeconds = newValue } }

    public var isUsable: Bool { forwardSpeedKmh > 0 || backwardSpeedKmh > 0 }

    public init(forwardSpeedKmh: Double, backwardSpeedKmh: Double, roadClass: RoadClass, flags: WayFlags, durationSeconds: Double? = nil) {
        self.forwardSpeedKmh = forwardSpeedKmh
        self.backwardSpeedKmh = backwardSpeedKmh
        self.roadClass = roadClass
        self.flags = flags
        self.durationSeconds = durationSeconds
    }
}

extension Profile {
    /// Applies the profile's tables to a way's tags; nil when this mode cannot use the way.
    public func evaluate(way tags: Tags) -> WayVerdict? {
        for (key, values) in excludedTags {
            if let v = tags[key], values.contains(v) { return nil }
        }
        if let open = openConstructionValues, let works = tags["construction"], !open.contains(works) { return nil }
        let highway = tags["highway"]
        let route = tags["route"]

        // Class and base speed: a highway in the table, a pushing way, a ferry, or explicit access.
        var speed: Double
        var roadClass: RoadClass
        var flags: WayFlags = []
        var duration: Double?
        var pushing = false
        let access = accessVerdict(tags, direction: nil)
        if case .denied = access { return nil }
        if isSeparatelyMapped(tags) { return nil }
        // Direction: one-way tags, implied one-ways, contraflow exemptions; then the lanes for this mode.
        let oneway = directions(tags, highway: highway)
        let lanes = cycleLanes(tags, forward: oneway.forward, backward: oneway.backward)
        // A road open to this mode only through its lanes: only the directions they serve.
        var laneOnly = false

        if let route, let routeSpeed = routeSpeedsKmh[route], highway == nil || route == "ferry" {
            // Which modes a ferry carries is the access keys' answer (`motor_vehicle`, `foot`, …),
            // every mode when untagged, as OSRM and Valhalla read ferries; a sightseeing line carries none.
            if route == "ferry" && FerryLines.isSightseeing(tags) { return nil }
            roadClass = .ferry
            flags.insert(.ferry)
            speed = routeSpeed
            duration = tags["duration"].flatMap(Self.parseDuration)
        } else if let highway {
            roadClass = RoadClass(osmHighway: highway)
            if let s = highwaySpeedsKmh[highway] {
                speed = s
                if highway == "service", let service = tags["service"], let s = serviceSpeedsKmh[service] {
                    if s <= 0 { return nil }
                    speed = s
                }
                if case .psvGranted = access { flags.insert(.psvOnly) }
            } else if case .granted = access, let s = accessGrantedSpeedKmh {
                speed = s
            } else if case .psvGranted = access, let s = accessGrantedSpeedKmh {
                speed = s
                flags.insert(.psvOnly)
            } else if lanes.forward || lanes.backward, let s = highwaySpeedsKmh["cycleway"] {
                speed = s
                laneOnly = true
            } else if let s = pushingSpeedsKmh[highway], tags["foot"] != "no" {
                speed = s
                pushing = true
            } else {
                return nil
            }
            if highway == "steps" {
                flags.insert(.steps)
                if pushing {
                    guard let carried = carriedSteps(tags) else { return nil }
                    speed = carried.speedKmh
                }
            }
            if highway == "platform" { flags.insert(.platform) }
            if let bridge = tags["bridge"], let s = bridgeSpeedsKmh[bridge] {
                speed = s
                duration = tags["duration"].flatMap(Self.parseDuration).map { max($0, 1) }
            }
        } else {
            return nil
        }
        if case .restricted = access { flags.insert(.restrictedAccess) }

        // A psv-only way: usable for taxis through their keys, but a car's keys say no.
        if !psvKeys.isEmpty, let highway, highway == "busway" || highway == "bus_guideway" {
            flags.insert(.psvOnly)
        }

        // Facts for options and advisories.
        if tags["toll"] == "yes" || tags["toll:motorcar"] == "yes" { flags.insert(.toll) }
        if let junction = tags["junction"], junction == "roundabout" || junction == "circular" { flags.insert(.roundabout) }
        if tags["junction"] == "circular" { flags.insert(.circular) }
        if let t = tags["tunnel"], t != "no" { flags.insert(.tunnel) }
        if let b = tags["bridge"], b != "no" { flags.insert(.bridge) }
        if tags["motorroad"] == "yes" { flags.insert(.motorroad) }
        if Self.isUnpaved(tags) { flags.insert(.unpaved) }
        if isCycleFriendly(tags, hasLane: lanes.forward || lanes.backward) { flags.insert(.cycleFriendly) }
        if isBesideFastTraffic(tags) { flags.insert(.fastTraffic) }

        // Speed: maxspeed (scaled), then caps by surface, tracktype and smoothness.
        var forward = speed, backward = speed
        if let s = highwaySpeedsKmh["cycleway"], !pushing {
            if lanes.forward { forward = s }
            if lanes.backward { backward = s }
        }
        if let factor = maxspeedFactor, !flags.contains(.ferry) {
            let limits = MaxSpeed.signed(tags)
            if let f = limits.forward { forward = f * factor }
            if let b = limits.backward { backward = b * factor }
        }
        var cap = Double.infinity
        if let s = tags["surface"], let c = surfaceSpeedCapsKmh[s] { cap = min(cap, c) }
        if let t = tags["tracktype"], let c = tracktypeSpeedCapsKmh[t] { cap = min(cap, c) }
        if let s = tags["smoothness"], let c = smoothnessSpeedCapsKmh[s] {
            cap = min(cap, c)
            // Too rough to ride faster than walking (`impassable`: no wheels, as OSM's smoothness
            // scale and Valhalla have it; `very_horrible`): the vehicle is walked where walking is allowed.
            if !pushing, !laneOnly, let walk = walkingSpeedKmh, c < walk, !flags.contains(.ferry), tags["foot"] != "no" {
                pushing = true
                forward = walk
                backward = walk
            }
        }
        if !pushing {
            forward = min(forward, cap)
            backward = min(backward, cap)
        }
        if maxspeedFactor == nil, let limit = tags["maxspeed"].flatMap(MaxSpeed.kmh), !flags.contains(.ferry) {
            forward = min(forward, limit)
            backward = min(backward, limit)
        }

        // A direction the one-way rules close is open where a lane serves it; one still closed is
        // walked where walking is allowed, except on a road open only through its lanes.
        let allowForward = lanes.forward || (oneway.forward && !laneOnly)
        let allowBackward = lanes.backward || (oneway.backward && !laneOnly)
        // Most ways carry no conditional tag: their conditions are not looked up key by key.
        let conditional = tags.pairs.contains { $0.key.hasSuffix(":conditional") }
        let conditions = conditional ? conditionalDirections(tags, forward: allowForward, backward: allowBackward) : ConditionalDirections()
        var pushForward = pushing, pushBackward = pushing
        let walk = flags.contains(.ferry) || laneOnly ? nil : pushAgainstOnewaySpeed(tags)
        // A direction a condition opens at times keeps its speed (the condition closes it otherwise).
        if !allowForward && conditions.forward == nil { if let walk { forward = walk; pushForward = true } else { forward = 0 } }
        if !allowBackward && conditions.backward == nil { if let walk { backward = walk; pushBackward = true } else { backward = 0 } }
        if let walk = walkingSpeedKmh, !flags.contains(.ferry), isDismount(tags) {
            forward = walk; backward = walk; pushForward = true; pushBackward = true
        }
        if denied(tags, direction: "forward") { forward = 0 }
        if denied(tags, direction: "backward") { backward = 0 }
        guard forward > 0 || backward > 0 else { return nil }
        var verdict = WayVerdict(forwardSpeedKmh: forward, backwardSpeedKmh: backward, roadClass: roadClass,
                                 flags: flags, durationSeconds: duration)
        verdict.forwardPushing = pushForward && forward > 0
        verdict.backwardPushing = pushBackward && backward > 0
        if flags.contains(.steps), verdict.forwardPushing || verdict.backwardPushing {
            verdict.penaltySeconds = carriedSteps(tags)?.penaltySeconds ?? 0
        }
        if conditional { applyConditions(tags, conditions, to: &verdict) }
        (verdict.forwardRatePercent, verdict.backwardRatePercent) = ratePercents(tags, bidirectional: forward > 0 && backward > 0)
        return verdict
    }

    enum AccessVerdict {
        case unspecified, granted, psvGranted, restricted, denied
    }

    /// The most specific access key present decides (`motorcar=yes` beats `access=no`).
    /// A cycle street (`bicycle_road=yes`) grants access unless the mode's own key speaks.
    func accessVerdict(_ tags: Tags, direction: String?) -> AccessVerdict {
        if let own = accessKeys.last, tags[own] == nil, impliedAccess(tags) { return .granted }
        for key in accessKeys.reversed() {
            let value = direction.flatMap { tags[key + ":" + $0] } ?? tags[key]
            guard let value, !value.isEmpty, value != "unknown" else { continue }
            if accessDenied.contains(value) { return .denied }
            if accessRestricted.contains(value) { return .restricted }
            return psvKeys.contains(key) ? .psvGranted : .granted
        }
        return .unspecified
    }

    private func denied(_ tags: Tags, direction: String) -> Bool {
        for key in accessKeys.reversed() {
            if let value = tags[key + ":" + direction], !value.isEmpty {
                return accessDenied.contains(value)
            }
        }
        return false
    }

    /// Which directions the one-way rules allow, before per-direction access.
    func directions(_ tags: Tags, highway: String?) -> (forward: Bool, backward: Bool) {
        var oneway: String?
        for key in onewayKeys {
            if let v = tags[key] { oneway = v; break }
        }
        var forward = true, backward = true
        switch oneway {
        case "yes", "true", "1":
            backward = false
        case "-1", "reverse":
            forward = false
        case "no", "false", "0":
            break
        default:
            if obeysOneway {
                if let highway, impliedOnewayHighways.contains(highway) { backward = false }
                if let junction = tags["junction"], impliedOnewayJunctions.contains(junction) { backward = false }
            }
        }
        if !backward || !forward {
            for (key, values) in contraflowTags {
                if let v = tags[key], values.contains(v) { forward = true; backward = true }
            }
        }
        return (forward, backward)
    }

    static let unpavedSurfaces: Set<String> = [
        "unpaved", "compacted", "gravel", "fine_gravel", "pebblestone", "ground", "dirt", "earth", "grass",
        "grass_paver", "mud", "sand", "woodchips", "clay", "rock", "salt", "snow", "ice",
    ]

    static func isUnpaved(_ tags: Tags) -> Bool {
        if let surface = tags["surface"] { return unpavedSurfaces.contains(surface) }
        if let grade = tags["tracktype"] { return grade != "grade1" }
        return tags["highway"] == "track"
    }

    /// Parses `duration=*` as "HH:MM", "HH:MM:SS", "MM" or ISO 8601 "PT1H30M"; seconds.
    static func parseDuration(_ text: String) -> Double? {
        if text.hasPrefix("PT") {
            var seconds = 0.0, number = ""
            for c in text.dropFirst(2) {
                if c.isNumber || c == "." { number.append(c); continue }
                guard let n = Double(number) else { return nil }
                switch c {
                case "H": seconds += n * 3600
                case "M": seconds += n * 60
                case "S": seconds += n
                default: return nil
                }
                number = ""
            }
            return seconds > 0 ? seconds : nil
        }
        let parts = text.split(separator: ":").map { Double($0) }
        guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
        let values = parts.map { $0! }
        let seconds: Double
        switch values.count {
        case 1: seconds = values[0] * 60
        case 2: seconds = values[0] * 3600 + values[1] * 60
        case 3: seconds = values[0] * 3600 + values[1] * 60 + values[2]
        default: return nil
        }
        return seconds > 0 ? seconds : nil
    }
}
