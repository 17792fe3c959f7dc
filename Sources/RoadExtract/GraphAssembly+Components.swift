import RoadNetwork

extension GraphAssembly {
    /// Flags arcs outside the largest strongly connected component when their component is small
    /// (fewer than 1000 arcs, as OSRM's limit, and less than half the largest), so snapping avoids
    /// dead pockets; in a map with no large component nothing is flagged. A two-way road that
    /// trips can both reach and leave is not flagged (`servesLargePart`). A route never passes
    /// through roads of restricted access (`RestrictedPassage`), so the pieces are those of the
    /// network without them, and a run of such roads belongs to the large part when a route can
    /// both enter it from there and leave it back there (a private court off a public street);
    /// a village whose only way out is a destination-only road is a small piece. Open road
    /// reached only from a run and leading on to open road is part of the run (`restrictedPockets`).
    mutating func flagSmallComponents() {
        let arcCount = b.arcEdge.count
        let restrictedWays = b.wayFlags.map { $0.contains(.restrictedAccess) }
        var restricted = (0..<arcCount).map { restrictedWays[b.edgeWay[Int(b.arcEdge[$0] >> 1)].index] }
        let open = { (a: Int) in !restricted[a] }
        let usesOpenPieces = restricted.contains(true) && restricted.contains(false)
        let components = self.components(keeping: usesOpenPieces ? open : nil)
        let pieces = ComponentSizes(components, counting: usesOpenPieces ? open : { _ in true })
        let serving = servesLargePart(components.component, pieces, open: restricted.map { !$0 })
        if usesOpenPieces {
            let area = restrictedPockets(restricted, components.component, pieces.largest)
            for a in 0..<arcCount where area[a] && !restricted[a] { b.arcFlags[a].insert(.restrictedPocket) }
            restricted = area
        }
        let inLargeRun = usesOpenPieces ? restrictedRunsOfLargePart(restricted, components.component, pieces.largest) : []
        for a in 0..<arcCount {
            if usesOpenPieces && restricted[a] {
                if inLargeRun[a] { b.arcFlags[a].insert(.largestComponent) } else { b.arcFlags[a].insert(.smallComponent) }
                continue
            }
            let c = Int(components.component[a])
            if c == pieces.largest { b.arcFlags[a].insert(.largestComponent) }
            if pieces.isSmall(c) && !serving[a] { b.arcFlags[a].insert(.smallComponent) }
        }
    }

    /// The open arcs of small pieces whose two-way road trips both reach from the large part (in
    /// one direction) and leave into it (in the other), though not by turning round on it: the
    /// end of a bridge whose far end meets only one-way ramps to roads under construction, where
    /// a car cannot turn back, so each direction is a piece of its own. OSRM joins a two-way
    /// road's directions into one piece, and starts or ends a trip there; so do we, rather than
    /// at a road further away. The pieces themselves keep to real turns, so that restricted runs
    /// and pockets are still judged by where a route can go.
    func servesLargePart(_ component: [Int32], _ pieces: ComponentSizes, open: [Bool]) -> [Bool] {
        let n = open.count
        var serving = [Bool](repeating: false, count: n)
        let twinOf = { (a: Int) -> Int? in
            let other = self.b.edgeArcs[Int(self.b.arcEdge[a] ^ 1)]
            return other.isNone ? nil : other.index
        }
        let candidates = (0..<n).filter { a in
            guard open[a], pieces.isSmall(Int(component[a])), let t = twinOf(a) else { return false }
            return open[t] && pieces.isSmall(Int(component[t]))
        }
        guard !candidates.isEmpty else { return serving }
        // Tarjan numbers a component after every component it leads to, so one pass over the
        // other pieces in increasing number finds those that lead to the large part, and one in
        // decreasing number (after the large part's own turns) those it leads to: no reverse
        // turn lists, and memory for the arcs outside the large part only.
        let firstOut = b.turnFirstOut, target = b.turnTarget, largest = pieces.largest
        let others = (0..<n).filter { open[$0] && Int(component[$0]) != largest }.sorted { component[$0] < component[$1] }
        let componentCount = Int(component.max() ?? -1) + 1
        var toLarge = [Bool](repeating: false, count: componentCount), fromLarge = toLarge
        toLarge[largest] = true
        fromLarge[largest] = true
        for a in others {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where open[target[t].index] && toLarge[Int(component[target[t].index])] {
                toLarge[Int(component[a])] = true
            }
        }
        for a in 0..<n where open[a] && Int(component[a]) == largest {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where open[target[t].index] { fromLarge[Int(component[target[t].index])] = true }
        }
        for a in others.reversed() where fromLarge[Int(component[a])] {
            for t in Int(firstOut[a])..<Int(firstOut[a + 1]) where open[target[t].index] { fromLarge[Int(component[target[t].index])] = true }
        }
        for a in candidates {
            let t = twinOf(a)!, ca = Int(component[a]), ct = Int(component[t])
            if (fromLarge[ca] || fromLarge[ct]) && (toLarge[ca] || toLarge[ct]) { serving[a] = true }
        }
        return serving
    }

    /// The strongly connected components of the arcs `keep` admits (all without it), over the
    /// turns between them.
    func components(keeping keep: ((Int) -> Bool)?) -> StronglyConnectedComponents {
        guard let keep else { return StronglyConnectedComponents(firstOut: b.turnFirstOut, target: b.turnTarget) }
        var firstOut: [UInt32] = [0]
        var target: [ArcID] = []
        for a in 0..<b.arcEdge.count {
            if keep(a) {
                for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) where keep(b.turnTarget[t].index) { target.append(b.turnTarget[t]) }
            }
            firstOut.append(UInt32(target.count))
        }
        return StronglyConnectedComponents(firstOut: firstOut, target: target)
    }

    /// Flags arcs of the large part that are small pieces once ferries are taken away (a pier
    /// road across the water, an islet): the network reaches them only by ferry, so snapping
    /// prefers a road of the large land part when one is about as near.
    mutating func flagFerryOnlyPieces() {
        let ferryWays = b.wayFlags.map { $0.contains(.ferry) }
        guard ferryWays.contains(true) else { return }
        let isFerry = (0..<b.arcEdge.count).map { ferryWays[b.edgeWay[Int(b.arcEdge[$0] >> 1)].index] }
        let components = self.components(keeping: { !isFerry[$0] })
        let pieces = ComponentSizes(components, counting: { !isFerry[$0] })
        for a in 0..<b.arcEdge.count where !isFerry[a] && !b.arcFlags[a].contains(.smallComponent) {
            if pieces.isSmall(Int(components.component[a])) { b.arcFlags[a].insert(.ferryOnlyPiece) }
        }
    }

    /// Restricted arcs whose run (restricted roads joined by turns, either way) a route can enter
    /// from the open component `largest` and leave back into it.
    func restrictedRunsOfLargePart(_ restricted: [Bool], _ component: [Int32], _ largest: Int) -> [Bool] {
        let n = restricted.count
        var parent = Array(0..<n)
        func root(_ x: Int) -> Int {
            var x = x
            while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }
            return x
        }
        func join(_ a: Int, _ v: Int) {
            let (x, y) = (root(a), root(v))
            if x != y { parent[x] = y }
        }
        // Both directions of a road are one run, and so are roads a turn joins.
        var firstArcOfEdge: [UInt32: Int] = [:]
        for a in 0..<n where restricted[a] {
            if let other = firstArcOfEdge[b.arcEdge[a] >> 1] { join(a, other) } else { firstArcOfEdge[b.arcEdge[a] >> 1] = a }
            for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) where restricted[b.turnTarget[t].index] { join(a, b.turnTarget[t].index) }
        }
        var entered = Set<Int>(), left = Set<Int>()
        for a in 0..<n {
            let aLarge = !restricted[a] && Int(component[a]) == largest
            for t in Int(b.turnFirstOut[a])..<Int(b.turnFirstOut[a + 1]) {
                let v = b.turnTarget[t].index
                if aLarge && restricted[v] { entered.insert(root(v)) }
                if restricted[a] && !restricted[v] && Int(component[v]) == largest { left.insert(root(a)) }
            }
        }
        return (0..<n).map { restricted[$0] && entered.contains(root($0)) && left.contains(root($0)) }
    }
}

/// The arcs in each strongly connected component, and which components are small: fewer than 1000
/// arcs (OSRM's limit) and less than half the largest.
struct ComponentSizes {
    let sizes: [Int]
    let largest: Int
    let threshold: Int

    init(_ components: StronglyConnectedComponents, counting counts: (Int) -> Bool) {
        var sizes = [Int](repeating: 0, count: components.count)
        for a in components.component.indices where counts(a) { sizes[Int(components.component[a])] += 1 }
        self.sizes = sizes
        largest = sizes.indices.max { sizes[$0] < sizes[$1] } ?? 0
        threshold = min(1000, (sizes.isEmpty ? 0 : sizes[largest]) / 2)
    }

    func isSmall(_ component: Int) -> Bool { component != largest && sizes[component] < threshold }
}
