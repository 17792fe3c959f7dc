import OSMPBF
import GeoCore

/// Reads an OSM source in three passes (relations, ways, nodes; each decodes only its own kind).
/// Place records go to the staging store as they are found; what stays in memory is compact: the node
/// lists of the ways that matter, the street ways as interned columns, interpolation lines and
/// boundary relations.
final class OSMPlaceCollector {
    let classifier: TagClassifier
    let staging: StagingStore
    var progress: ((String, Double) -> Void)?

    private(set) var geometry = OSMGeometry()
    private(set) var streets = StreetWayTable()
    /// Multipolygon and boundary relations whose geometry is needed: outer and inner member ways.
    private(set) var relationMembers: [(outer: [Int64], inner: [Int64])] = []
    private var relationWayIDs: Set<Int64> = []
    private var wayIndexByOSMID: [Int64: Int32] = [:]
    /// `associatedStreet` relations: street name by member node or way.
    private var associatedStreetOfNode: [Int64: String] = [:]
    private var associatedStreetOfWay: [Int64: String] = [:]
    private(set) var boundaries: [(relation: Int, osmID: Int64, kind: TagClassifier.BoundaryKind, name: String,
                                   others: [String: String], countryCode: String?)] = []
    private(set) var interpolationWays: [(way: Int32, scheme: String, street: String?, postcode: String?, city: String?)] = []
    /// House numbers of nodes on interpolation lines (the lines' ends often carry nothing else).
    private var interpolationNodeIDs: Set<Int64> = []
    private(set) var interpolationAnchors: [Int64: AddressInterpolator.Anchor] = [:]
    private(set) var statistics = (nodes: 0, ways: 0, relations: 0)

    /// Keys that can make an object interesting; objects without any are skipped without decoding tags.
    private let interestingKeys: Set<String>

    init(classifier: TagClassifier, staging: StagingStore) {
        self.classifier = classifier
        self.staging = staging
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

    private func withAssociatedStreet(_ tags: Tags, street: String?) -> Tags {
        guard let street, tags["addr:housenumber"] != nil, tags["addr:street"] == nil else { return tags }
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
                        if block.relationMemberTypes[m] == .node {
                            associatedStreetOfNode[block.relationMemberIDs[m]] = name
                        } else {
                            associatedStreetOfWay[block.relationMemberIDs[m]] = name
                        }
                    }
                    continue
                }
                guard type == "multipolygon" || type == "boundary" else { continue }
                let boundary = classifier.boundary(tags)
                let found = classifier.records(tags, type: .relation, id: block.relationIDs[r])
                guard !found.isEmpty || boundary != nil else { continue }
                var outer: [Int64] = [], inner: [Int64] = []
                for m in block.relationMemberRange(r) where block.relationMemberTypes[m] == .way {
                    let role = block.strings[Int(block.relationMemberRoles[m])]
                    if role == "inner" { inner.append(block.relationMemberIDs[m]) } else if role == "outer" || role.isEmpty {
                        outer.append(block.relationMemberIDs[m])
                    }
                }
                guard !outer.isEmpty else { continue }
                relationMembers.append((outer, inner))
                relationWayIDs.formUnion(outer)
                relationWayIDs.formUnion(inner)
                let index = relationMembers.count - 1
                if let boundary {
                    boundaries.append((index, block.relationIDs[r], boundary.kind, boundary.name, boundary.others, boundary.countryCode))
                }
                for record in found { try staging.add(record, source: .relation(index)) }
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
                let tags = withAssociatedStreet(block.wayTags(w), street: associatedStreetOfWay[osmID])
                for record in classifier.records(tags, type: .way, id: osmID) { try staging.add(record, source: .way(keep())) }
                if let street = classifier.street(tags) {
                    streets.add(way: keep(), name: street.name, others: street.others, highway: street.highway, road: street.road,
                                postcode: street.postcode)
                }
                if let scheme = tags["addr:interpolation"] {
                    interpolationWays.append((keep(), scheme, TagClassifier.clean(tags["addr:street"]),
                                              TagClassifier.clean(tags["addr:postcode"]), TagClassifier.clean(tags["addr:city"])))
                    interpolationNodeIDs.formUnion(block.wayRefs[refs])
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
                let tags = withAssociatedStreet(block.nodeTags(n), street: associatedStreetOfNode[id])
                if interpolationNodeIDs.contains(id), let number = TagClassifier.clean(tags["addr:housenumber"]) {
                    interpolationAnchors[id] = AddressInterpolator.Anchor(
                        number: number, street: TagClassifier.clean(tags["addr:street"] ?? tags["addr:place"]),
                        postcode: TagClassifier.clean(tags["addr:postcode"]), city: TagClassifier.clean(tags["addr:city"]),
                        countryCode: TagClassifier.clean(tags["addr:country"])?.uppercased())
                }
                for var record in classifier.records(tags, type: .node, id: id) {
                    record.position = coordinate
                    try staging.add(record, source: .point)
                }
            }
        }
    }

    // MARK: Geometry

    /// The position, extent and (for closed ways and relations) outline of a record waiting in staging.
    func locate(_ r: PlaceRecord, _ source: StagingStore.Source) -> (position: Coordinate, extent: BoundingBox, shape: Shape?)? {
        switch source {
        case .point:
            return (r.position, BoundingBox(minLatitudeE7: r.position.latitudeE7, minLongitudeE7: r.position.longitudeE7,
                                            maxLatitudeE7: r.position.latitudeE7, maxLongitudeE7: r.position.longitudeE7), nil)
        case .way(let w):
            let points = geometry.coordinates(ofWay: w)
            let closed = geometry.isClosed(w)
            guard let p = PolygonGeometry.representativePoint(points, closed: closed) else { return nil }
            let keepShape = closed && points.count >= 4 && (r.kind == .address || r.kind == .poi)
            return (p, PolygonGeometry.bounds(points), keepShape ? Shape(rings: [Array(points.dropLast())]) : nil)
        case .relation(let rel):
            guard let shape = relationShape(rel) else { return nil }
            let box = shape.bounds
            let outer = shape.rings.max { $0.count < $1.count } ?? []
            var point = box.center
            if let c = PolygonGeometry.centroid(ofRing: outer), shape.contains(c.point) { point = c.point }
            return (point, box, r.kind == .address || r.kind == .poi ? shape : nil)
        }
    }

    /// A relation's closed rings (outer and inner), joined from its member ways; nil when none closes.
    func relationShape(_ rel: Int) -> Shape? {
        var rings: [[Coordinate]] = []
        for members in [relationMembers[rel].outer, relationMembers[rel].inner] {
            let ways = members.compactMap { wayIndexByOSMID[$0] }.map { Array(geometry.refs(ofWay: $0)) }
            for ids in RingAssembler.rings(from: ways) {
                let ring = ids.dropLast().compactMap { geometry.coordinate(ofNode: $0) }
                if ring.count >= 3 { rings.append(ring) }
            }
        }
        return rings.isEmpty ? nil : Shape(rings: rings)
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

    /// Lets go of the node lists and positions once streets, lines and boundaries have been built.
    func releaseGeometry() {
        geometry = OSMGeometry()
        wayIndexByOSMID = [:]
        relationWayIDs = []
    }
}
