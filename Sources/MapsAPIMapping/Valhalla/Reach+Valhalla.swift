public import MapsAPI
public import RoutePlanning
public import GeoCore

/// What a Valhalla `/isochrone` answer shows besides the contours.
public struct IsochroneOptions: Sendable {
    /// `time` (levels in seconds, shown in minutes) or `distance` (metres, shown in kilometres).
    public var metric = "time"
    /// Polygons (`polygons=true`) or their outer rings as lines.
    public var polygons = false
    /// One per contour, smallest first, without `#`; nil for the default palette.
    public var colors: [String?] = []
    /// The input and the snapped point as MultiPoint features.
    public var showLocations = false
    public var id: String?

    public init() {}
}

extension Valhalla.FeatureCollection {
    /// One Feature per contour, largest first, as Valhalla orders them.
    public init(_ reach: Reach, origin: Coordinate, options: IsochroneOptions) {
        let perUnit = options.metric == "time" ? 60.0 : 1000.0  // minutes or kilometres
        func position(_ c: Coordinate) -> [Double] { [OSRM.round6(c.longitude), OSRM.round6(c.latitude)] }
        var features: [Valhalla.Feature] = []
        for (i, contour) in reach.contours.enumerated().reversed() {
            let geometry: Valhalla.Geometry
            if options.polygons {
                let rings = contour.polygons.map { [$0.outer.map(position)] + $0.holes.map { $0.map(position) } }
                geometry = rings.count == 1 ? .polygon(rings[0]) : .multiPolygon(rings)
            } else {
                let lines = contour.polygons.map { $0.outer.map(position) }
                geometry = lines.count == 1 ? .lineString(lines[0]) : .multiLineString(lines)
            }
            let color = i < options.colors.count ? options.colors[i] : nil
            let value = (contour.level / perUnit * 1000).rounded() / 1000
            features.append(.init(geometry: geometry, properties: .init(
                contour: value, metric: options.metric, color: "#" + (color ?? Self.defaultColor(i, of: reach.contours.count)))))
        }
        if options.showLocations {
            features.append(.init(geometry: .multiPoint([position(origin)]), properties: .init(contour: nil, metric: nil, color: nil)))
            features.append(.init(geometry: .multiPoint([position(reach.center)]), properties: .init(contour: nil, metric: nil, color: nil)))
        }
        self.init(features: features, id: options.id)
    }

    /// Valhalla's palette idea: from red (nearest) through orange to green (farthest).
    static func defaultColor(_ i: Int, of count: Int) -> String {
        let palette = ["ff0000", "ff8000", "ffd000", "80c000", "00a040", "0080c0"]
        guard count > 1 else { return palette[0] }
        return palette[min(palette.count - 1, i * (palette.count - 1) / (count - 1))]
    }
}
