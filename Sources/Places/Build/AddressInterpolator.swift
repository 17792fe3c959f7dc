import GeoCore

/// Expands OSM `addr:interpolation` ways into the house numbers between their numbered nodes, placed
/// proportionally along the way: `odd`, `even`, `all`, a step ("2"), or `alphabetic` ("12a" to "12d"
/// gives 12b and 12c). Every number made is flagged interpolated.
enum AddressInterpolator {
    /// Most numbers generated between two known ones (guards against typos such as 2–20000).
    static let maximumPerGap = 200

    /// A numbered node on an interpolation line; the line's own tags fill what it lacks.
    struct Anchor: Equatable {
        var number: String
        var street: String?
        var postcode: String?
        var city: String?
        var countryCode: String?
    }

    /// One interpolation way: its nodes (id and position) and its tags.
    struct Line {
        var osmID: Int64
        var nodes: [(id: Int64, position: Coordinate)]
        /// `odd`, `even`, `all`, `alphabetic`, or a step such as `2`.
        var scheme: String
        var street: String?
        var postcode: String?
        var city: String?
    }

    /// The number a house number starts with ("12" → 12, "12a" → 12, "12-14" → 12), as the ends of a
    /// numeric line are read: "6" to "12a" on an even line gives 8 and 10.
    static func leadingNumber(_ text: String) -> Int? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        return Int(digits)
    }

    /// "12a" → (12, "a"); "12" → (12, nil); nil for anything else.
    static func numberAndLetter(_ text: String) -> (Int, Character?)? {
        let t = text.filter { $0 != " " }.lowercased()
        let digits = t.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits), digits.count <= 6 else { return nil }
        let rest = t.dropFirst(digits.count)
        if rest.isEmpty { return (n, nil) }
        guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter else { return nil }
        return (n, letter)
    }

    /// The numbers strictly between two ends under `scheme`, from `a` towards `b`; nil when the ends do not fit it.
    static func numbers(from a: String, to b: String, scheme: String) -> [String]? {
        if scheme == "alphabetic" {
            guard let (na, la) = numberAndLetter(a), let (nb, lb) = numberAndLetter(b), na == nb else { return nil }
            let from = la?.asciiValue ?? (Character("a").asciiValue! - 1), to = lb?.asciiValue ?? (Character("a").asciiValue! - 1)
            guard from != to else { return nil }
            let step: Int = to > from ? 1 : -1
            var out: [String] = []
            var c = Int(from) + step
            while c != Int(to) {
                if c >= Int(Character("a").asciiValue!) { out.append("\(na)\(Character(Unicode.Scalar(UInt8(c))))") }
                c += step
            }
            return out
        }
        guard let na = leadingNumber(a), let nb = leadingNumber(b), na != nb else { return nil }
        let step: Int
        switch scheme {
        case "odd", "even": step = 2
        case "all": step = 1
        default:
            guard let s = Int(scheme), s > 0 else { return nil }
            step = s
        }
        if scheme == "odd" && (na % 2 == 0 || nb % 2 == 0) { return nil }
        if scheme == "even" && (na % 2 != 0 || nb % 2 != 0) { return nil }
        guard (nb - na) % step == 0 else { return nil }
        let count = abs(nb - na) / step - 1
        guard count > 0, count <= maximumPerGap else { return count == 0 ? [] : nil }
        let direction = nb > na ? step : -step
        return (1...count).map { String(na + $0 * direction) }
    }

    /// The address records of a line's interpolated numbers; `anchors` are the numbered nodes, by OSM node id.
    static func expand(_ line: Line, anchors: [Int64: Anchor]) -> [PlaceRecord] {
        var along: [Double] = [0]
        for i in 1..<max(1, line.nodes.count) {
            along.append(along[i - 1] + Geodesy.distanceMeters(line.nodes[i - 1].position, line.nodes[i].position))
        }
        let ends = line.nodes.enumerated().compactMap { i, node in anchors[node.id].map { (index: i, anchor: $0) } }
        var out: [PlaceRecord] = []
        for k in 1..<max(1, ends.count) {
            let a = ends[k - 1], b = ends[k]
            guard let numbers = numbers(from: a.anchor.number, to: b.anchor.number, scheme: line.scheme), !numbers.isEmpty,
                  let street = line.street ?? a.anchor.street ?? b.anchor.street else { continue }
            let start = along[a.index], span = along[b.index] - along[a.index]
            for (j, number) in numbers.enumerated() {
                let target = start + span * Double(j + 1) / Double(numbers.count + 1)
                guard let position = point(at: target, along: along, line.nodes) else { continue }
                var r = PlaceRecord(kind: .address, osmType: .way, osmID: line.osmID, name: "", osmKey: "place", osmValue: "house",
                                    importance: 0.2)
                r.position = position
                r.extent = BoundingBox(minLatitudeE7: position.latitudeE7, minLongitudeE7: position.longitudeE7,
                                       maxLatitudeE7: position.latitudeE7, maxLongitudeE7: position.longitudeE7)
                r.houseNumber = number
                r.street = street
                r.postcode = line.postcode ?? a.anchor.postcode ?? b.anchor.postcode
                r.city = line.city ?? a.anchor.city ?? b.anchor.city
                r.countryCode = a.anchor.countryCode ?? b.anchor.countryCode
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
