#if canImport(Glibc)
import Glibc
#endif

/// A value that grows with zoom: stops joined geometrically (each zoom multiplies the value by a
/// constant between two stops), so widths double per zoom where the stops say so. Zero before the
/// first stop, the last stop's value after the last.
public struct ZoomCurve: Sendable {
    public var stops: [(zoom: Double, value: Double)]

    public init(_ stops: [(zoom: Double, value: Double)]) {
        self.stops = stops.sorted { $0.zoom < $1.zoom }
    }

    public static let zero = ZoomCurve([])

    public func value(at zoom: Double) -> Double {
        guard let first = stops.first, let last = stops.last, zoom >= first.zoom else { return 0 }
        if zoom >= last.zoom { return last.value }
        for i in 1..<stops.count where zoom <= stops[i].zoom {
            let a = stops[i - 1], b = stops[i]
            let t = (zoom - a.zoom) / (b.zoom - a.zoom)
            guard a.value > 0, b.value > 0 else { return a.value + (b.value - a.value) * t }
            return a.value * pow(b.value / a.value, t)
        }
        return last.value
    }
}
