import GeoCore

/// Expands OSM `addr:interpolation` ways into the house numbers between their tagged nodes,
/// placed proportionally along the way.
enum AddressInterpolator {
    /// Most numbers generated between two known ones (guards against typos such as 2–20000).
    static let maximumPerGap = 200

    /// One interpolation way: its nodes (id and position) and its tags.
    struct Line {
        var osmID: Int64
        var nodes: [(id: Int64, position: Coordinate)]
        /// `odd`, `even`, `all`, or a step such as `2`.
        var scheme: String
        var street: String?
        var postcode: String?
        var city: String?
    }

    /// The leading integer of a house number when it has no suffix ("12" → 12, "12a" → nil).
    static func plainNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy(\.isNumber) else { return nil }
        return Int(text)
    }

    /// - Parameter known: address records of tagged nodes, by OSM node id.
    static func expand(_ line: Line, known: [Int64: PlaceRecord]) -> [PlaceRecord] {
        let step: Int
        switch line.scheme {
        case "odd", "even": step = 2
        case "all", "alphabetic": step = 1
        default:
            guard let s = Int(line.scheme), s > 0 else { return [] }
            step = s
        }
        // Cumulative distance along the way, to place numbers proportionally.
        var along: [Double] = [0]
        for i in 1..<max(1, line.nodes.count) {
            along.append(along[i - 1] + Geodesy.distanceMeters(line.nodes[i - 1].position, line.nodes[i].position))
        }
        var anchors: [(index: Int, number: Int, record: PlaceRecord)] = []
        for (i, node) in line.nodes.enumerated() {
            if let r = known[node.id], let n = r.houseNumber.flatMap(plainNumber) { anchors.append((i, n, r)) }
        }
        var out: [PlaceRecord] = []
        for k in 1..<max(1, anchors.count) {
            let a = anchors[k - 1], b = anchors[k]
            guard a.number != b.number else { continue }
            if step == 2 && (a.number - b.number) % 2 != 0 { continue }
            if line.scheme == "odd" && a.number % 2 == 0 { continue }
            if line.scheme == "even" && a.number % 2 != 0 { continue }
            let count = abs(b.number - a.number) / step - 1
            guard count > 0, count <= maximumPerGap else { continue }
            let direction = b.number > a.number ? step : -step
            let start = along[a.index], span = along[b.index] - along[a.index]
            for j in 1...count {
                let number = a.number + j * direction
                let target = start + span * Double(j) / Double(count + 1)
                guard let position = point(at: target, along: along, line.nodes) else { continue }
                let street = line.street ?? a.record.street ?? b.record.street
                guard let street else { continue }
                var r = PlaceRecord(kind: .address, osmType: .way, osmID: line.osmID, name: "", osmKey: "place", osmValue: "house",
                                    importance: 0.2)
                r.position = position
                r.houseNumber = String(number)
                r.street = street
                r.postcode = line.postcode ?? a.record.postcode ?? b.record.postcode
                r.city = line.city ?? a.record.city ?? b.record.city
                r.countryCode = a.record.countryCode ?? b.record.countryCode
                r.flags.insert(.interpolated)
                out.append(r)
            }
        }
        return out
    }

    private static func point(at distance: Double, along: [Double], _ nodes: [(id: Int64, position: Coordinate)]) -> Coordinate? {
        guard let first = nodes.first else { return nil }
        for i in 1..<max(1, nodes.count) where distance <= along[i] {
            let span = along[i] - along[i - 1]
            return Geodesy.interpolate(nodes[i - 1].position, nodes[i].position, span > 0 ? (distance - along[i - 1]) / span : 0)
        }
        return nodes.last?.position ?? first.position
    }
}
