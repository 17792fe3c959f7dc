import OSMPBF

/// What the builder keeps of one OSM object.
enum Classification: Equatable {
    case feature(BaseMapKind, FeatureFlags, layer: Int8)
    /// A `natural=coastline` way: land on the left of its direction.
    case coastline
}

/// Turns OSM tags into base-map kinds. Pure functions of the tags; the builder decides what to do
/// with the geometry.
enum FeatureClassifier {
    /// A way: closed ways with area tags become areas, anything else with line tags a line.
    /// `reversed` is true for `oneway=-1`, whose points the builder flips.
    static func classifyWay(_ tags: Tags, isClosed: Bool) -> (Classification, reversed: Bool)? {
        if tags["natural"] == "coastline" { return (.coastline, false) }
        let areaTag = tags["area"]
        if isClosed && areaTag != "no", let kind = areaKind(tags, includeHighwayAreas: true) {
            return (.feature(kind, [], layer: layer(tags)), false)
        }
        guard let (kind, link) = lineKind(tags) else { return nil }
        if kind.isRoad && (tags["indoor"] == "yes" || tags["location"] == "indoor") { return nil }
        var flags: FeatureFlags = link ? [.link] : []
        if tags["location"] == "underground" { flags.insert(.tunnel) }
        if let bridge = tags["bridge"], bridge != "no" { flags.insert(.bridge) }
        if let tunnel = tags["tunnel"], tunnel != "no" { flags.insert(.tunnel) }
        if tags["covered"] == "yes" && kind.isRailway { flags.insert(.tunnel) }
        if let service = tags["service"] {
            if kind.isRailway || (kind == .service && ["parking_aisle", "driveway", "drive-through"].contains(service)) {
                flags.insert(.minor)
            }
        }
        var reversed = false
        if kind.isRoad {
            switch tags["oneway"] {
            case "yes", "1", "true": flags.insert(.oneway)
            case "-1", "reverse": flags.insert(.oneway); reversed = true
            case "no", "false", "0": break
            default:
                if kind == .motorway || tags["junction"] == "roundabout" { flags.insert(.oneway) }
            }
        }
        return (.feature(kind, flags, layer: layer(tags)), reversed)
    }

    /// A `type=multipolygon` relation: only area kinds.
    static func classifyRelation(_ tags: Tags) -> BaseMapKind? {
        guard tags["type"] == "multipolygon" else { return nil }
        return areaKind(tags, includeHighwayAreas: true)
    }

    static func classifyNode(_ tags: Tags) -> BaseMapKind? {
        guard let place = tags["place"], let name = tags["name"], !name.isEmpty else { return nil }
        switch place {
        case "city": return .city
        case "town": return .town
        case "village": return .village
        case "suburb", "borough": return .suburb
        case "quarter": return .quarter
        case "neighbourhood": return .neighbourhood
        case "hamlet": return .hamlet
        case "island": return .island
        default: return nil
        }
    }

    /// Whether a kind keeps its `name` tag in the file (for labels).
    static func keepsName(_ kind: BaseMapKind) -> Bool {
        switch kind.geometry {
        case .point: return true
        case .line: return kind.isRoad || kind == .river
        case .area: return kind == .water || kind == .park || kind == .pedestrianArea
        }
    }

    static func layer(_ tags: Tags) -> Int8 {
        guard let text = tags["layer"], let value = Int(text) else { return 0 }
        return Int8(max(-5, min(5, value)))
    }

    static func areaKind(_ tags: Tags, includeHighwayAreas: Bool) -> BaseMapKind? {
        if let building = tags["building"], building != "no" { return .building }
        if let part = tags["building:part"], part != "no", tags["building"] == nil { return nil }
        if includeHighwayAreas, let highway = tags["highway"] {
            if tags["area"] == "yes" && ["pedestrian", "footway", "service", "living_street", "residential"].contains(highway) {
                return .pedestrianArea
            }
            return nil  // a closed road is a ring road, not an area
        }
        if tags["natural"] == "water" || tags["waterway"] == "riverbank" || tags["waterway"] == "dock" { return .water }
        if tags["man_made"] == "pier" { return .pier }
        if tags["amenity"] == "grave_yard" { return .cemetery }
        if let landuse = tags["landuse"] {
            switch landuse {
            case "reservoir", "basin", "salt_pond": return .water
            case "forest": return .forest
            case "grass", "meadow", "village_green", "recreation_ground", "flowerbed": return .grass
            case "residential": return .residential
            case "commercial", "retail": return .commercial
            case "industrial", "railway", "port", "garages": return .industrial
            case "cemetery": return .cemetery
            case "farmland", "farmyard", "orchard", "vineyard", "allotments", "plant_nursery", "greenhouse_horticulture": return .farmland
            default: break
            }
        }
        if let leisure = tags["leisure"] {
            switch leisure {
            case "park", "garden", "nature_reserve", "playground", "dog_park": return .park
            case "pitch", "track", "stadium", "golf_course", "sports_centre": return .pitch
            case "swimming_pool": return .water
            default: break
            }
        }
        if let natural = tags["natural"] {
            switch natural {
            case "wood": return .forest
            case "scrub", "heath": return .scrub
            case "grassland": return .grass
            case "beach", "sand", "shingle": return .beach
            case "wetland", "marsh": return .wetland
            case "bay", "strait": return nil
            default: break
            }
        }
        return nil
    }

    static func lineKind(_ tags: Tags) -> (BaseMapKind, link: Bool)? {
        if let highway = tags["highway"] {
            let link = highway.hasSuffix("_link")
            switch link ? String(highway.dropLast(5)) : highway {
            case "motorway": return (.motorway, link)
            case "trunk": return (.trunk, link)
            case "primary": return (.primary, link)
            case "secondary": return (.secondary, link)
            case "tertiary": return (.tertiary, link)
            case "residential", "unclassified", "living_street", "road": return (.minorRoad, false)
            case "service", "busway": return (.service, false)
            case "pedestrian": return (.pedestrian, false)
            case "track": return (.track, false)
            case "footway", "path", "cycleway", "bridleway": return (.path, false)
            case "steps": return (.steps, false)
            default: return nil
            }
        }
        if let railway = tags["railway"] {
            switch railway {
            case "rail", "light_rail", "narrow_gauge", "preserved", "funicular", "monorail": return (.rail, false)
            case "tram": return (.tram, false)
            case "subway": return (.subway, false)
            default: return nil
            }
        }
        if let waterway = tags["waterway"] {
            switch waterway {
            case "river", "canal": return (.river, false)
            case "stream", "ditch", "drain", "brook": return (.stream, false)
            default: return nil
            }
        }
        if tags["man_made"] == "pier" { return (.pierLine, false) }
        return nil
    }
}
