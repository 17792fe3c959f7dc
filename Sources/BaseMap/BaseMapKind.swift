/// What a base-map feature is. Raw values are stored in the file and double as the drawing
/// order within each geometry class (areas from background to foreground, roads from minor to major).
public enum BaseMapKind: UInt8, Sendable, CaseIterable {
    // Areas, drawn in this order.
    case residential = 0
    case commercial
    case industrial
    case farmland
    case cemetery
    case grass
    case scrub
    case park
    case forest
    case wetland
    case beach
    case pitch
    case sea
    case water
    case pier
    case pedestrianArea
    case building

    // Lines.
    case river = 40
    case stream
    case path
    case steps
    case track
    case service
    case pedestrian
    case minorRoad
    case tertiary
    case secondary
    case primary
    case trunk
    case motorway
    case tram
    case subway
    case rail
    case pierLine

    // Points.
    case city = 80
    case town
    case village
    case suburb
    case quarter
    case neighbourhood
    case hamlet
    case island

    public enum Geometry: Sendable {
        case area, line, point
    }

    @inlinable
    public var geometry: Geometry {
        rawValue < 40 ? .area : rawValue < 80 ? .line : .point
    }

    /// The lowest zoom at which the feature is drawn (and so stored).
    public var minZoom: Int {
        switch self {
        case .sea: return 0
        case .water: return 6
        case .forest, .residential, .farmland: return 9
        case .park, .commercial, .industrial: return 11
        case .grass, .scrub, .cemetery, .beach, .wetland: return 12
        case .pier: return 13
        case .pitch, .pedestrianArea: return 14
        case .building: return 14
        case .river: return 8
        case .stream: return 13
        case .motorway: return 5
        case .trunk: return 6
        case .primary: return 8
        case .secondary: return 10
        case .tertiary: return 11
        case .minorRoad: return 12
        case .service, .pedestrian, .track: return 14
        case .path: return 14
        case .steps: return 15
        case .rail: return 10
        case .tram: return 13
        case .subway: return 13
        case .pierLine: return 14
        case .city: return 4
        case .town: return 8
        case .village: return 11
        case .suburb: return 12
        case .quarter, .hamlet, .island: return 13
        case .neighbourhood: return 14
        }
    }

    public var isRoad: Bool { rawValue >= BaseMapKind.path.rawValue && rawValue <= BaseMapKind.motorway.rawValue }
    public var isRailway: Bool { self == .rail || self == .tram || self == .subway }
}
