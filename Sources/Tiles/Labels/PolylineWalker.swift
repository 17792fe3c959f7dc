#if canImport(Glibc)
import Glibc
#endif

/// A polyline in pixels measured by length, for setting text along it.
struct PolylineWalker {
    private(set) var xs: [Double]
    private(set) var ys: [Double]
    /// Length from the start to each point.
    private(set) var distances: [Double]

    init(xs: [Double], ys: [Double]) {
        self.xs = xs
        self.ys = ys
        var d = [0.0]
        d.reserveCapacity(xs.count)
        for i in 1..<max(1, xs.count) {
            d.append(d[i - 1] + ((xs[i] - xs[i - 1]) * (xs[i] - xs[i - 1]) + (ys[i] - ys[i - 1]) * (ys[i] - ys[i - 1])).squareRoot())
        }
        distances = d
    }

    var length: Double { distances.last ?? 0 }

    func reversed() -> PolylineWalker { PolylineWalker(xs: xs.reversed(), ys: ys.reversed()) }

    /// The point at `distance` along the line and the direction there (radians, 0 = east, y down).
    func point(at distance: Double) -> (x: Double, y: Double, angle: Double) {
        guard xs.count >= 2 else { return (xs.first ?? 0, ys.first ?? 0, 0) }
        var low = 0, high = distances.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if distances[mid] <= distance { low = mid } else { high = mid }
        }
        let segment = distances[high] - distances[low]
        let t = segment > 0 ? max(0, min(1, (distance - distances[low]) / segment)) : 0
        let dx = xs[high] - xs[low], dy = ys[high] - ys[low]
        return (xs[low] + dx * t, ys[low] + dy * t, atan2(dy, dx))
    }
}
