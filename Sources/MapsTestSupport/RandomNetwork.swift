public import OSMPBF
import GeoCore

/// Seeded random road networks as OSM data: a jittered grid of nodes joined by ways of random
/// classes, with one-ways, missing links, barriers and turn restrictions, so oracle tests see the
/// awkward cases real maps have.
public enum RandomNetwork {
    public static func block(seed: UInt64, width: Int, height: Int, spacingMeters: Double = 120) -> OSMBlock {
        var rng = SplitMix64(seed: seed)
        var b = OSMBlockBuilder()
        let origin = Coordinate(latitude: 60.2, longitude: 24.9)
        let metersPerLon = Geodesy.metersPerDegreeLatitude * Geodesy.cosine(ofLatitude: origin.latitude)
        func id(_ x: Int, _ y: Int) -> Int64 { Int64(y * width + x + 1) }
        for y in 0..<height {
            for x in 0..<width {
                let jx = (Double(rng.next() % 1000) / 1000 - 0.5) * spacingMeters * 0.6
                let jy = (Double(rng.next() % 1000) / 1000 - 0.5) * spacingMeters * 0.6
                let east = Double(x) * spacingMeters + jx, south = Double(y) * spacingMeters + jy
                let lat = origin.latitude - south / Geodesy.metersPerDegreeLatitude
                let lon = origin.longitude + east / metersPerLon
                let c = Coordinate(latitude: lat, longitude: lon)
                var tags = Tags()
                switch rng.next() % 40 {
                case 0: tags = ["highway": "traffic_signals"]
                case 1: tags = ["barrier": "bollard"]
                default: break
                }
                b.addNode(id: id(x, y), latitudeE7: c.latitudeE7, longitudeE7: c.longitudeE7, tags: tags)
            }
        }
        let classes = ["primary", "secondary", "tertiary", "residential", "residential", "residential", "service", "footway", "cycleway"]
        var wayID: Int64 = 1
        var wayEnds: [(id: Int64, from: Int64, to: Int64)] = []
        for y in 0..<height {
            for x in 0..<width {
                for (dx, dy) in [(1, 0), (0, 1)] {
                    let nx = x + dx, ny = y + dy
                    guard nx < width, ny < height, rng.next() % 10 != 0 else { continue }
                    var tags: Tags = ["highway": classes[Int(rng.next() % UInt64(classes.count))]]
                    switch rng.next() % 8 {
                    case 0: tags.pairs.append(("oneway", "yes"))
                    case 1: tags.pairs.append(("oneway", "-1"))
                    case 2: tags.pairs.append(("maxspeed", "30"))
                    default: break
                    }
                    b.addWay(id: wayID, refs: [id(x, y), id(nx, ny)], tags: tags)
                    wayEnds.append((wayID, id(x, y), id(nx, ny)))
                    wayID += 1
                }
            }
        }
        // Restrictions between ways that share a node.
        var byNode: [Int64: [Int64]] = [:]
        for w in wayEnds {
            byNode[w.from, default: []].append(w.id)
            byNode[w.to, default: []].append(w.id)
        }
        var relationID: Int64 = 1
        for (node, ways) in byNode.sorted(by: { $0.key < $1.key }) where ways.count >= 3 && rng.next() % 6 == 0 {
            let from = ways[Int(rng.next() % UInt64(ways.count))], to = ways[Int(rng.next() % UInt64(ways.count))]
            guard from != to else { continue }
            let type = rng.next() % 3 == 0 ? "only_straight_on" : "no_left_turn"
            b.addRelation(id: relationID, members: [(.way, from, "from"), (.node, node, "via"), (.way, to, "to")],
                          tags: ["type": "restriction", "restriction": type])
            relationID += 1
        }
        return b.block
    }
}
