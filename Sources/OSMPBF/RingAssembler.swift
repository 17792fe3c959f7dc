/// Joins the member ways of a multipolygon (or a boundary relation) into closed rings of node IDs.
///
/// Ways may run in either direction. A chain that cannot be closed (a member missing from the
/// extract, a broken relation) is dropped rather than guessed at; the other rings survive.
public enum RingAssembler {
    public static func rings(from ways: [[Int64]]) -> [[Int64]] {
        var rings: [[Int64]] = []
        var open: [[Int64]] = []
        for way in ways where way.count >= 2 {
            if way.first == way.last {
                if way.count >= 4 { rings.append(way) }
            } else {
                open.append(way)
            }
        }
        guard !open.isEmpty else { return rings }
        var byEndpoint: [Int64: [Int]] = [:]
        for (i, way) in open.enumerated() {
            byEndpoint[way[0], default: []].append(i)
            byEndpoint[way[way.count - 1], default: []].append(i)
        }
        var used = [Bool](repeating: false, count: open.count)
        for start in open.indices where !used[start] {
            used[start] = true
            var ring = open[start]
            var closed = false
            for _ in 0..<open.count {
                guard let end = ring.last, let first = ring.first else { break }
                if end == first { closed = true; break }
                guard let next = byEndpoint[end]?.first(where: { !used[$0] }) else { break }
                used[next] = true
                let way = open[next]
                if way[0] == end {
                    ring.append(contentsOf: way.dropFirst())
                } else {
                    ring.append(contentsOf: way.reversed().dropFirst())
                }
            }
            if !closed, ring.count >= 4, ring.first == ring.last { closed = true }
            if closed && ring.count >= 4 { rings.append(ring) }
        }
        return rings
    }
}
