import GeoCore
import OSMPBF

/// Reads an OSM source in three passes (relations, ways, nodes) and returns every base-map
/// feature in full detail, with the sea assembled from the coastline.
///
/// Only the nodes that kept ways use are held in memory, never the whole node set.
struct SourceCollector {
    var extractBounds: BoundingBox?
    var progress: ((_ stage: String, _ fraction: Double) -> Void)?

    struct Result {
        var drafts: [FeatureDraft]
        var dataBounds: BoundingBox
        var extractBox: MercatorBox
        var coastlineWays: Int
    }

    private struct RelationDraft {
        var kind: BaseMapKind
        var name: String
        var memberWayIDs: [Int64]
    }

    private struct WayDraft {
        var kind: BaseMapKind
        var flags: FeatureFlags
        var layer: Int8
        var name: String
        var refs: [Int64]
    }

    func collect(_ source: any OSMSource) throws -> Result {
        // Pass 1: multipolygon relations and the ways they need.
        var relations: [RelationDraft] = []
        var memberWayIDs = Set<Int64>()
        try source.forEachBlock(content: [.relations], progress: { done, total in
            progress?("basemap: read relations", Double(done) / Double(max(1, total)))
        }) { block in
            guard block.relationCount > 0, block.stringIndex(of: "multipolygon") != nil else { return }
            for r in 0..<block.relationCount {
                let tags = block.relationTags(r)
                guard let kind = FeatureClassifier.classifyRelation(tags) else { continue }
                var members: [Int64] = []
                for m in block.relationMemberRange(r) where block.relationMemberTypes[m] == .way {
                    let role = block.strings[Int(block.relationMemberRoles[m])]
                    if role == "outer" || role == "inner" || role.isEmpty { members.append(block.relationMemberIDs[m]) }
                }
                guard !members.isEmpty else { continue }
                memberWayIDs.formUnion(members)
                relations.append(RelationDraft(kind: kind, name: FeatureClassifier.keepsName(kind) ? tags["name"] ?? "" : "",
                                               memberWayIDs: members))
            }
        }

        // Pass 2: ways.
        var ways: [WayDraft] = []
        var coastlines: [[Int64]] = []
        var memberRefs: [Int64: [Int64]] = [:]
        var neededNodes: [Int64] = []
        try source.forEachBlock(content: [.ways], progress: { done, total in
            progress?("basemap: read ways", Double(done) / Double(max(1, total)))
        }) { block in
            for w in 0..<block.wayCount {
                let refRange = block.wayRefRange(w)
                guard refRange.count >= 2 else { continue }
                let isMember = memberWayIDs.contains(block.wayIDs[w])
                let tagRange = block.wayTagRange(w)
                guard isMember || !tagRange.isEmpty else { continue }
                let refs = Array(block.wayRefs[refRange])
                if isMember {
                    memberRefs[block.wayIDs[w]] = refs
                    neededNodes.append(contentsOf: refs)
                }
                guard !tagRange.isEmpty else { continue }
                let tags = block.wayTags(w)
                let isClosed = refs.count >= 4 && refs.first == refs.last
                guard let (classification, reversed) = FeatureClassifier.classifyWay(tags, isClosed: isClosed) else { continue }
                switch classification {
                case .coastline:
                    coastlines.append(refs)
                case .feature(let kind, let flags, let layer):
                    ways.append(WayDraft(kind: kind, flags: flags, layer: layer,
                                         name: FeatureClassifier.keepsName(kind) ? tags["name"] ?? "" : "",
                                         refs: reversed ? refs.reversed() : refs))
                }
                if !isMember { neededNodes.append(contentsOf: refs) }
            }
        }

        // Pass 3: node positions and place labels.
        var nodes = NodeTable(neededIDs: neededNodes)
        neededNodes = []
        var dataBounds = BoundingBox.empty
        var drafts: [FeatureDraft] = []
        try source.forEachBlock(content: [.nodes], progress: { done, total in
            progress?("basemap: read nodes", Double(done) / Double(max(1, total)))
        }) { block in
            let placeKey = block.stringIndex(of: "place")
            for n in 0..<block.nodeCount {
                let c = Coordinate(latitudeE7: block.nodeLatitudesE7[n], longitudeE7: block.nodeLongitudesE7[n])
                dataBounds.formUnion(c)
                nodes.offer(id: block.nodeIDs[n], point: MercatorPoint(c))
                guard let placeKey, block.nodeTagRange(n).contains(where: { block.nodeTagKeys[$0] == placeKey }) else { continue }
                let tags = block.nodeTags(n)
                if let kind = FeatureClassifier.classifyNode(tags) {
                    drafts.append(FeatureDraft(kind: kind, flags: [], layer: 0, name: tags["name"] ?? "", parts: [[MercatorPoint(c)]]))
                }
            }
        }

        progress?("basemap: assemble", 0)
        for way in ways {
            var points = nodes.points(of: way.refs)
            if way.kind.geometry == .area {
                guard points.count >= 3 else { continue }
                if points.first != points.last { points.append(points[0]) }
                guard points.count >= 4 else { continue }
            } else {
                guard points.count >= 2 else { continue }
            }
            drafts.append(FeatureDraft(kind: way.kind, flags: way.flags, layer: way.layer, name: way.name, parts: [points]))
        }
        for relation in relations {
            let memberWays = relation.memberWayIDs.compactMap { memberRefs[$0] }
            let rings = RingAssembler.rings(from: memberWays).compactMap { ids -> [MercatorPoint]? in
                var points = nodes.points(of: ids)
                guard points.count >= 3 else { return nil }
                if points.first != points.last { points.append(points[0]) }
                return points.count >= 4 ? points : nil
            }
            guard !rings.isEmpty else { continue }
            drafts.append(FeatureDraft(kind: relation.kind, flags: [], layer: 0, name: relation.name, parts: rings))
        }
        progress?("basemap: assemble", 0.5)

        let box = extractBox(source: source, dataBounds: dataBounds)
        let chains = CoastlineAssembler.chains(from: coastlines).map { nodes.points(of: $0) }
        let sea = CoastlineAssembler.seaRings(chains: chains, box: box)
        if !sea.isEmpty {
            drafts.append(FeatureDraft(kind: .sea, flags: [.coastal], layer: 0, name: "", parts: sea))
        }
        drafts = LineMerger.merge(drafts)
        progress?("basemap: assemble", 1)
        return Result(drafts: drafts, dataBounds: dataBounds, extractBox: box, coastlineWays: coastlines.count)
    }

    /// The box the coastline is closed along: the caller's, else the file header's clipped to the
    /// data (headers can be wrong), else the data's own extent.
    private func extractBox(source: any OSMSource, dataBounds: BoundingBox) -> MercatorBox {
        if let extractBounds, !extractBounds.isEmpty { return MercatorBox(extractBounds) }
        guard !dataBounds.isEmpty else { return .empty }
        if let reader = source as? PBFReader, let h = reader.header.boundingBox {
            let header = BoundingBox(minLatitudeE7: h.minLatitudeE7, minLongitudeE7: h.minLongitudeE7,
                                     maxLatitudeE7: h.maxLatitudeE7, maxLongitudeE7: h.maxLongitudeE7)
            let clipped = BoundingBox(minLatitudeE7: max(header.minLatitudeE7, dataBounds.minLatitudeE7),
                                      minLongitudeE7: max(header.minLongitudeE7, dataBounds.minLongitudeE7),
                                      maxLatitudeE7: min(header.maxLatitudeE7, dataBounds.maxLatitudeE7),
                                      maxLongitudeE7: min(header.maxLongitudeE7, dataBounds.maxLongitudeE7))
            if !clipped.isEmpty && clipped.minLatitudeE7 < clipped.maxLatitudeE7 && clipped.minLongitudeE7 < clipped.maxLongitudeE7 {
                return MercatorBox(clipped)
            }
        }
        return MercatorBox(dataBounds)
    }
}
