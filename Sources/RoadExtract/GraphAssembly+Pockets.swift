import RoadNetwork

/// Searches over the turns between open arcs (those `open` admits), with them and against them.
struct OpenTurns {
    let n: Int
    let firstOut: [UInt32], target: [ArcID]
    let open: [Bool]
    var firstIn: [Int], source: [Int]

    init(firstOut: [UInt32], target: [ArcID], open: [Bool]) {
        n = open.count
        self.firstOut = firstOut; self.target = target; self.open = open
        // Open turns by target, for the searches against the turns.
        firstIn = [Int](repeating: 0, count: n + 1)
        for a in 0..<n where open[a] {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where open[target[t].index] { firstIn[target[t].index + 1] += 1 }
        }
        for v in 0..<n { firstIn[v + 1] += firstIn[v] }
        var fill = firstIn
        source = [Int](repeating: 0, count: firstIn[n])
        for a in 0..<n where open[a] {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where open[target[t].index] {
                source[fill[target[t].index]] = a
                fill[target[t].index] += 1
            }
        }
    }

    /// Open arcs reached from `seeds` over open turns (against them when not `forward`) within `allowed`.
    func spread(_ seeds: [Int], forward: Bool, allowed: (Int) -> Bool = { _ in true }) -> [Bool] {
        var seen = [Bool](repeating: false, count: n)
        var stack: [Int] = []
        for s in seeds where open[s] && !seen[s] && allowed(s) { seen[s] = true; stack.append(s) }
        while let a = stack.popLast() {
            let next = forward ? (Int(firstOut[a])..<Int(firstOut[a + 1])).map { target[$0].index } : Array(source[firstIn[a]..<firstIn[a + 1]])
            for v in next where open[v] && !seen[v] && allowed(v) { seen[v] = true; stack.append(v) }
        }
        return seen
    }
}

extension GraphAssembly {
    /// `restricted` with the pockets of open road that belong to a restricted area: open road
    /// that the large part (`component` `largest` of the open network) reaches only through the
    /// area but that leads back to it over open road (a one-way street out of a destination-only
    /// street). A route may end in such a pocket as in the area itself, and never passes through
    /// it. Open road the large part neither reaches nor is reached from without the area (a hamlet
    /// behind a private lane) is no pocket: it lies behind the area, not in it. Nor is open road
    /// reached from the large part that leads only into the area (a one-way street into a
    /// destination-only one): taken into the area, it would let a route to it cut through the
    /// area, entering it once either way, where it now keeps to open road.
    func restrictedPockets(_ restricted: [Bool], _ component: [Int32], _ largest: Int) -> [Bool] {
        let n = restricted.count, large = Int32(largest)
        let firstOut = b.turnFirstOut, target = b.turnTarget
        let turns = OpenTurns(firstOut: firstOut, target: target, open: restricted.map { !$0 })
        let largeArcs = (0..<n).filter { !restricted[$0] && component[$0] == large }
        let fromLarge = turns.spread(largeArcs, forward: true)
        let toLarge = turns.spread(largeArcs, forward: false)
        var afterArea: [Int] = []
        for a in 0..<n where restricted[a] {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where !restricted[target[t].index] { afterArea.append(target[t].index) }
        }
        let exits = turns.spread(afterArea, forward: true) { !fromLarge[$0] && toLarge[$0] }
        return (0..<n).map { restricted[$0] || exits[$0] }
    }
}
