import OSMPBF
import GeoCore

/// Reads an OSM source in three passes (relations, ways, nodes; each decodes only its own kind)
/// and collects place records, named street ways and interpolation lines with their geometry.
/// Memory holds the records and the node lists of the ways that matter, not the whole file.
final class OSMPlaceCollector {
    enum GeometrySource {
        case point(Coordinate)
        case way(Int32)
        case relation(Int)
    }

    let classifier: TagClassifier
    var progress: ((String, Double) -> Void)?

    private(set) var geometry = OSMGeometry()
    private(set) var records: [PlaceRecord] = []
    private(set) var sources: [GeometrySource] = []
    /// Outer member ways (OSM ids) of multipolygon relations that became places.
    private var relationOuterWays: [[Int64]] = []
    private var relationWayIDs: Set<Int64> = []
    private var wayIndexByOSMID: [Int64: Int32] = [:]
    /// `associatedStreet` relations: street name by member ("w123", "n45").
    private var associatedStreet: [String: String] = [:]
    private(set) var streetWays: [(way: Int32, name: String, others: [String: String], highway: String)] = []
    private(set) var interpolationWays: [(way: Int32, scheme: String, street: String?, postcode: String?, city: String?)] = []
    private(set) var statistics = (nodes: 0, ways: 0, relations: 0, missingGeometry: 0)

    /// Keys that can make an object interesting; objects without any are skipped without decoding tags.
    private let interestingKeys: Set<String>

    init(classifier: TagClassifier) {
        self.classifier = classifier
        interestingKeys = Set(TagClassifier.poiKeys + ["name", "highway", "addr:housenumber", "addr:housename", "addr:interpolation",
                                                       "place", "addr:street", "brand"]).union(classifier.taxonomy.keys)
    }

    func collect(_ source: any OSMSource) throws {
        try readRelations(source)
        try readWays(source)
        try readNodes(source)
    }

    /// Marks the block's string-table entries that are interesting keys.
    private func interestingMask(_ block: OSMBlock) -> [Bool] {
        block.strings.map { interestingKeys.contains($0) || $0.hasPrefix("name:") }
    }

    private func withAssociatedStreet(_ tags: Tags, member: String) -> Tags {
        guard tags["addr:housenumber"] != nil, tags["addr:street"] == nil, let street = associatedStreet[member] else { return tags }
        var t = tags
        t.pairs.append((key: "addr:street", value: street))
        return t
    }

    private func readRelations(_ source: any OSMSource) throws {
        try source.forEachBlock(content: [.relations], progress: { [weak self] done, total in
            self?.progress?("read relations", Double(done) / Double(max(1, total)))
        }) { block in
            statistics.relations += block.relationCount
            for r in 0..<block.relationCount where !block.relationTagRange(r).isEmpty {
                let tags = block.relationTags(r)
                let type = tags["type"]
                if type == "associatedStreet" || type == "street", let name = tags["name"] {
                    for m in block.relationMemberRange(r) {
                        let role = block.strings[Int(block.relationMemberRoles[m])]
                        guard role == "house" || role == "address" else { continue }
                        let prefix = block.relationMemberTypes[m] == .node ? "n" : "w"
                        associatedStreet["\(prefix)\(block.relationMemberIDs[m])"] = name
                    }
                    continue
                }
                guard type == "multipolygon" else { continue }
                let found = classifier.records(tags, type: .relation, id: block.relationIDs[r])
                guard !found.isEmpty else { continue }
                var outers: [Int64] = []
                for m in block.relationMemberRange(r) where block.relationMemberTypes[m] == .way {
                    let role = block.strings[Int(block.relationMemberRoles[m])]
                    if role == "outer" || role.isEmpty { outers.append(block.relationMemberIDs[m]) }
                }
                guard !outers.isEmpty else { continue }
                relationOuterWays.append(outers)
                relationWayIDs.formUnion(outers)
                for record in found {
                    records.append(record)
                    sources.append(.relation(relationOuterWays.count - 1))
                }
            }
        }
    }

    private func readWays(_ source: any OSMSource) throws {
        try source.forEachBlock(content: [.ways], progress: { [weak self] done, total in
            self?.progress?("read ways", Double(done) / Double(max(1, total)))
        }) { block in
            statistics.ways += block.wayCount
            let mask = interestingMask(block)
            for w in 0..<block.wayCount {
                let osmID = block.wayIDs[w]
                let refs = block.wayRefRange(w)
                guard !refs.isEmpty else { continue }
                var interesting = false
                for t in block.wayTagRange(w) where mask[Int(block.wayTagKeys[t])] {
                    interesting = true
                    break
                }
                let neededByRelation = relationWayIDs.contains(osmID)
                guard interesting || neededByRelation else { continue }
                var index: Int32?
                func keep() -> Int32 {
                    if let index { return index }
                    let i = geometry.addWay(osmID: osmID, refs: block.wayRefs[refs])
                    index = i
                    return i
                }
                if neededByRelation { wayIndexByOSMID[osmID] = keep() }
                guard interesting else { continue }
                let tags = withAssociatedStreet(block.wayTags(w), member: "w\(osmID)")
                for record in classifier.records(tags, type: .way, id: osmID) {
                    records.append(record)
                    sources.append(.way(keep()))
                }
                if let street = classifier.street(tags) {
                    streetWays.append((keep(), street.name, street.others, street.highway))
                }
                if let scheme = tags["addr:interpolation"] {
                    interpolationWays.append((keep(), scheme, TagClassifier.clean(tags["addr:street"]),
                                              TagClassifier.clean(tags["addr:postcode"]), TagClassifier.clean(tags["addr:city"])))
                }
            }
        }
    }

    private func readNodes(_ source: any OSMSource) throws {
        geometry.prepareNodeTable(extra: [])
        try source.forEachBlock(content: [.nodes], progress: { [weak self] done, total in
            self?.progress?("read nodes", Double(done) / Double(max(1, total)))
        }) { block in
            statistics.nodes += block.nodeCount
            let mask = interestingMask(block)
            var cursor = 0
            var previous = Int64.min
            for n in 0..<block.nodeCount {
                let id = block.nodeIDs[n]
                let coordinate = Coordinate(latitudeE7: block.nodeLatitudesE7[n], longitudeE7: block.nodeLongitudesE7[n])
                if id < previous { cursor = 0 }
                previous = id
                cursor = geometry.lowerBound(id, from: cursor)
                if cursor < geometry.nodeIDs.count && geometry.nodeIDs[cursor] == id { geometry.setNode(at: cursor, coordinate) }
                var interesting = false
                for t in block.nodeTagRange(n) where mask[Int(block.nodeTagKeys[t])] {
                    interesting = true
                    break
                }
                guard interesting else { continue }
                let tags = withAssociatedStreet(block.nodeTags(n), member: "n\(id)")
                for record in classifier.records(tags, type: .node, id: id) {
                    records.append(record)
                    sources.append(.point(coordinate))
                }
            }
        }
    }

    // MARK: Geometry

    /// Gives every record its position and extent; drops records whose geometry is missing from the extract.
    func resolveGeometry() -> [PlaceRecord] {
        var out: [PlaceRecord] = []
        out.reserveCapacity(records.count)
        for (i, var r) in records.enumerated() {
            switch sources[i] {
            case .point(let c):
                r.position = c
            case .way(let w):
                let points = geometry.coordinates(ofWay: w)
                guard let p = PolygonGeometry.representativePoint(points, closed: geometry.isClosed(w)) else {
                    statistics.missingGeometry += 1
                    continue
                }
                r.position = p
                r.extent = PolygonGeometry.bounds(points)
            case .relation(let rel):
                guard let (p, box) = relationPoint(rel) else {
                    statistics.missingGeometry += 1
                    continue
                }
                r.position = p
                r.extent = box
            }
            guard Coordinate.isValid(latitude: r.position.latitude, longitude: r.position.longitude) else { continue }
            out.append(r)
        }
        return out
    }

    private func relationPoint(_ rel: Int) -> (Coordinate, BoundingBox)? {
        var box = BoundingBox.empty
        var best: (point: Coordinate, area: Double)?
        for wayID in relationOuterWays[rel] {
            guard let w = wayIndexByOSMID[wayID] else { continue }
            let points = geometry.coordinates(ofWay: w)
            for p in points { box.formUnion(p) }
            if geometry.isClosed(w), let c = PolygonGeometry.centroid(ofRing: Array(points.dropLast())), c.area > (best?.area ?? 0) {
                best = c
            }
        }
        guard !box.isEmpty else { return nil }
        if let best, box.contains(best.point) { return (best.point, box) }
        return (box.center, box)
    }

    /// Street ways with their node lists and positions.
    func streetGeometries() -> [StreetWay] {
        streetWays.compactMap { s in
            let points = geometry.coordinates(ofWay: s.way)
            guard !points.isEmpty else { return nil }
            return StreetWay(osmID: geometry.wayOSMIDs[Int(s.way)], name: s.name, otherNames: s.others, highway: s.highway,
                             nodeIDs: Array(geometry.refs(ofWay: s.way)), points: points)
        }
    }

    /// Interpolation lines with their nodes' ids and positions.
    func interpolationLines() -> [AddressInterpolator.Line] {
        interpolationWays.map { i in
            var nodes: [(id: Int64, position: Coordinate)] = []
            for id in geometry.refs(ofWay: i.way) {
                if let c = geometry.coordinate(ofNode: id) { nodes.append((id, c)) }
            }
            return AddressInterpolator.Line(osmID: geometry.wayOSMIDs[Int(i.way)], nodes: nodes, scheme: i.scheme,
                                            street: i.street, postcode: i.postcode, city: i.city)
        }
    }
}
