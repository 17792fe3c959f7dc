import BaseMap

#if canImport(Glibc)
import Glibc
#endif

extension TileDrawing {
    static let arrowKinds: [BaseMapKind] = [.service, .minorRoad, .tertiary, .secondary, .primary, .trunk]

    /// Small arrows along one-way streets, from zoom 16.
    func drawOnewayArrows() {
        guard zoom >= 16 else { return }
        let spacing = 90.0, length = zoom >= 18 ? 9.0 : 7.0, head = zoom >= 18 ? 3.0 : 2.4
        canvas.newPath()
        var any = false
        for kind in Self.arrowKinds {
            for f in features(kind) where map.flags(f).contains(.oneway) && !map.flags(f).contains(.tunnel) {
                for part in map.parts(f) {
                    var xs: [Double] = [], ys: [Double] = []
                    for p in map.points(ofPart: part) {
                        let (x, y) = pixel(p)
                        xs.append(x)
                        ys.append(y)
                    }
                    guard xs.count >= 2 else { continue }
                    let walker = PolylineWalker(xs: xs, ys: ys)
                    var s = spacing / 2
                    while s + length < walker.length {
                        let a = walker.point(at: s), b = walker.point(at: s + length)
                        s += spacing
                        guard max(a.x, b.x) > -8, min(a.x, b.x) < 264, max(a.y, b.y) > -8, min(a.y, b.y) < 264 else { continue }
                        let angle = atan2(b.y - a.y, b.x - a.x)
                        canvas.moveTo(a.x, a.y)
                        canvas.lineTo(b.x, b.y)
                        canvas.moveTo(b.x - head * cos(angle - 0.6), b.y - head * sin(angle - 0.6))
                        canvas.lineTo(b.x, b.y)
                        canvas.lineTo(b.x - head * cos(angle + 0.6), b.y - head * sin(angle + 0.6))
                        any = true
                    }
                }
            }
        }
        guard any else { return }
        canvas.setColor(style.onewayArrow)
        canvas.setDash([])
        canvas.setLineWidth(1)
        canvas.stroke()
    }
}
