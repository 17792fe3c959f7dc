/// Douglas–Peucker line simplification in world units.
enum Simplifier {
    /// Keeps the first and last point and every point farther than `toleranceUnits` from the
    /// simplified line; consecutive duplicates are dropped first. Works for closed rings too
    /// (first == last): the farthest point from the start splits the ring.
    static func simplify(_ points: [MercatorPoint], toleranceUnits: Double) -> [MercatorPoint] {
        var input: [MercatorPoint] = []
        input.reserveCapacity(points.count)
        for p in points where input.last != p { input.append(p) }
        guard input.count > 2, toleranceUnits > 0 else { return input }
        var keep = [Bool](repeating: false, count: input.count)
        keep[0] = true
        keep[input.count - 1] = true
        let tolerance2 = toleranceUnits * toleranceUnits
        var stack: [(Int, Int)] = [(0, input.count - 1)]
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let ax = Double(input[first].x), ay = Double(input[first].y)
            let dx = Double(input[last].x) - ax, dy = Double(input[last].y) - ay
            let length2 = dx * dx + dy * dy
            var farthest = -1
            var farthestDistance2 = tolerance2
            for i in (first + 1)..<last {
                let px = Double(input[i].x) - ax, py = Double(input[i].y) - ay
                let d2: Double
                if length2 == 0 {
                    d2 = px * px + py * py
                } else {
                    let cross = px * dy - py * dx
                    d2 = cross * cross / length2
                }
                if d2 > farthestDistance2 {
                    farthestDistance2 = d2
                    farthest = i
                }
            }
            if farthest >= 0 {
                keep[farthest] = true
                stack.append((first, farthest))
                stack.append((farthest, last))
            }
        }
        var output: [MercatorPoint] = []
        output.reserveCapacity(input.count / 2)
        for i in input.indices where keep[i] { output.append(input[i]) }
        return output
    }
}
