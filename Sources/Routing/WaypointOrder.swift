/// The order of intermediate waypoints that minimises the total cost, with the first and last
/// waypoint fixed (TomTom's `computeBestOrder`).
///
/// Exact (Held–Karp dynamic programming, O(2ⁿ n²)) for up to `exactLimit` intermediate stops;
/// beyond that nearest neighbour followed by 2-opt until no move improves (good, not proven best).
public enum WaypointOrder {
    public static let exactLimit = 12

    /// - Parameter cost: `cost[i][j]` from waypoint i to waypoint j (nil: unreachable).
    /// - Returns: the waypoint indices in visiting order, starting with 0 and ending with n − 1;
    ///   nil when no order connects them.
    public static func best(cost: [[Double?]]) -> [Int]? {
        let n = cost.count
        guard n > 3 else { return Array(0..<n) }
        let middle = Array(1..<(n - 1))
        if middle.count <= exactLimit { return heldKarp(cost: cost, middle: middle) }
        return improved(cost: cost, middle: middle)
    }

    public static func total(_ order: [Int], cost: [[Double?]]) -> Double? {
        var sum = 0.0
        for (a, b) in zip(order, order.dropFirst()) {
            guard let c = cost[a][b] else { return nil }
            sum += c
        }
        return sum
    }

    static func heldKarp(cost: [[Double?]], middle: [Int]) -> [Int]? {
        let k = middle.count, n = cost.count
        let full = (1 << k) - 1
        var dp = [[Double]](repeating: [Double](repeating: .infinity, count: k), count: 1 << k)
        var parent = [[Int]](repeating: [Int](repeating: -1, count: k), count: 1 << k)
        for i in 0..<k { if let c = cost[0][middle[i]] { dp[1 << i][i] = c } }
        for mask in 1...full {
            for last in 0..<k where mask & (1 << last) != 0 && dp[mask][last].isFinite {
                for next in 0..<k where mask & (1 << next) == 0 {
                    guard let c = cost[middle[last]][middle[next]] else { continue }
                    let value = dp[mask][last] + c
                    let m2 = mask | (1 << next)
                    if value < dp[m2][next] { dp[m2][next] = value; parent[m2][next] = last }
                }
            }
        }
        var bestLast = -1
        var bestValue = Double.infinity
        for last in 0..<k {
            guard let c = cost[middle[last]][n - 1], dp[full][last].isFinite else { continue }
            if dp[full][last] + c < bestValue { bestValue = dp[full][last] + c; bestLast = last }
        }
        guard bestLast >= 0 else { return nil }
        var order: [Int] = []
        var mask = full, last = bestLast
        while last >= 0 {
            order.append(middle[last])
            let p = parent[mask][last]
            mask &= ~(1 << last)
            last = p
        }
        return [0] + Array(order.reversed()) + [n - 1]
    }

    static func improved(cost: [[Double?]], middle: [Int]) -> [Int]? {
        let n = cost.count
        // Nearest neighbour from the origin.
        var remaining = Set(middle)
        var order = [0]
        while !remaining.isEmpty {
            let from = order[order.count - 1]
            guard let next = remaining.min(by: { (cost[from][$0] ?? .infinity) < (cost[from][$1] ?? .infinity) }) else { break }
            order.append(next)
            remaining.remove(next)
        }
        order.append(n - 1)
        // 2-opt on the inner part (reversing a stretch changes directed costs, so re-total each move).
        var bestTotal = total(order, cost: cost) ?? .infinity
        var improvedSomething = true
        while improvedSomething {
            improvedSomething = false
            for i in 1..<(order.count - 2) {
                for j in (i + 1)..<(order.count - 1) {
                    var candidate = order
                    candidate[i...j].reverse()
                    if let t = total(candidate, cost: cost), t + 1e-9 < bestTotal {
                        order = candidate
                        bestTotal = t
                        improvedSomething = true
                    }
                }
            }
        }
        return bestTotal.isFinite ? order : nil
    }
}
