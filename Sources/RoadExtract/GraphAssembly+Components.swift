import RoadNetwork

extension GraphAssembly {
    /// Flags arcs outside the largest strongly connected component when their component is small
    /// (fewer than 1000 arcs, as OSRM's limit, and less than half the largest), so snapping avoids
    /// dead pockets; in a map with no large component nothing is flagged.
    mutating func flagSmallComponents() {
        let components = StronglyConnectedComponents(firstOut: b.turnFirstOut, target: b.turnTarget)
        var sizes = [Int](repeating: 0, count: components.count)
        for c in components.component { sizes[Int(c)] += 1 }
        let largest = sizes.indices.max { sizes[$0] < sizes[$1] } ?? 0
        let threshold = min(1000, (sizes.isEmpty ? 0 : sizes[largest]) / 2)
        for a in 0..<b.arcEdge.count {
            let c = Int(components.component[a])
            if c == largest { b.arcFlags[a].insert(.largestComponent) }
            if c != largest && sizes[c] < threshold { b.arcFlags[a].insert(.smallComponent) }
        }
    }
}
