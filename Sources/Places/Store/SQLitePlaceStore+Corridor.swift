import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// Longest stretch of route covered by one R*Tree box, as a multiple of the corridor width (and at least 1 km).
    static let corridorChunkFactor = 4.0

    public func corridor(_ query: CorridorQuery) throws -> [CorridorMatch] {
        let line = query.polyline
        guard line.count >= 2, query.maxDistanceMeters > 0 else { return [] }
        let width = query.maxDistanceMeters
        let limit = min(max(query.limit, 1), 2_000)
        return try withSession { session in
            var codes = categoryCodes(query.categories, session)
            if let codes, codes.isEmpty { return [] }
            var fts: String?
            if let text = query.text, !text.isEmpty {
                let words = session.words(text)
                let named = taxonomy.phrase(words.joined(separator: " ")).compactMap { session.categoryCodes[taxonomy.categories[$0].id] }
                if !named.isEmpty {
                    // "gas station" names a category: search the category, not the words.
                    codes = codes.map { $0.filter(named.contains) } ?? named
                    if codes?.isEmpty ?? false { return [] }
                } else if !words.isEmpty {
                    fts = QueryWord.ftsQuery(words.enumerated().map { QueryWord(text: $0.element, isPrefix: $0.offset == words.count - 1) })
                }
            }
            // Cumulative distance at each vertex.
            var along = [0.0]
            for i in 1..<line.count { along.append(along[i - 1] + Geodesy.distanceMeters(line[i - 1], line[i])) }
            var best: [Int64: CorridorMatch] = [:]
            let s = try session.database.cachedStatement("""
                SELECT \(PlaceRow.columns) FROM poi_rtree r JOIN place p ON p.id = r.id
                WHERE r.max_lat >= ?1 AND r.min_lat <= ?2 AND r.max_lon >= ?3 AND r.min_lon <= ?4
                  AND (?5 IS NULL OR EXISTS (SELECT 1 FROM place_category c
                                             WHERE c.code IN (SELECT value FROM json_each(?5)) AND c.place_id = p.id))
                """)
            defer { s.reset() }
            let textMatches: Set<Int64>? = try fts.map { try matchingIDs($0, session: session) }
            if let textMatches, textMatches.isEmpty { return [] }
            for chunk in Self.chunks(line, along: along, maxLengthMeters: max(1_000, Self.corridorChunkFactor * width)) {
                var box = BoundingBox.empty
                for p in chunk.points { box.formUnion(p) }
                box = box.expanded(byMeters: width)
                s.reset()
                try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                            .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7)),
                            codes.map { .text(Self.jsonArray($0)) } ?? .null])
                while try s.step() {
                    let id = s.int64(0)
                    if let textMatches, !textMatches.contains(id) { continue }
                    let position = Coordinate(latitudeE7: s.int32(5), longitudeE7: s.int32(6))
                    guard let near = Self.nearest(position, chunk: chunk, line: line, along: along), near.distance <= width else { continue }
                    if let existing = best[id], existing.distanceFromRouteMeters <= near.distance { continue }
                    var place = finish(PlaceRow.decode(s), language: query.language)
                    place.distanceMeters = near.distance
                    place.score = ((1 / (1 + near.distance / 100)) * 1000).rounded() / 1000
                    best[id] = CorridorMatch(place: place, distanceFromRouteMeters: near.distance, offsetAlongRouteMeters: near.offset,
                                             segmentIndex: near.segment, nearestRoutePoint: near.point)
                }
            }
            return best.values.sorted {
                ($0.distanceFromRouteMeters, $0.offsetAlongRouteMeters, $0.place.id) < ($1.distanceFromRouteMeters, $1.offsetAlongRouteMeters, $1.place.id)
            }.prefix(limit).map { $0 }
        }
    }

    /// Place ids whose text matches an FTS expression.
    func matchingIDs(_ fts: String, session: PlaceSession) throws -> Set<Int64> {
        let s = try session.database.cachedStatement("SELECT rowid FROM place_fts WHERE place_fts MATCH ?1")
        defer { s.reset() }
        try s.bind(fts, at: 1)
        var ids = Set<Int64>()
        while try s.step() { ids.insert(s.int64(0)) }
        return ids
    }

    /// A stretch of the polyline: segments `firstSegment..<firstSegment + points.count - 1` of the original,
    /// with long segments cut so that no chunk spans more than `maxLengthMeters`.
    struct Chunk {
        var points: [Coordinate]
        /// For each chunk point, the original segment it lies on and the distance from the route start.
        var segment: [Int]
        var offset: [Double]
    }

    static func chunks(_ line: [Coordinate], along: [Double], maxLengthMeters: Double) -> [Chunk] {
        var chunks: [Chunk] = []
        var current = Chunk(points: [line[0]], segment: [0], offset: [0])
        var length = 0.0
        for i in 1..<line.count {
            let a = line[i - 1], b = line[i]
            let segmentLength = along[i] - along[i - 1]
            let pieces = max(1, Int((segmentLength / maxLengthMeters).rounded(.up)))
            for k in 1...pieces {
                let f = Double(k) / Double(pieces)
                let p = k == pieces ? b : Geodesy.interpolate(a, b, f)
                let pieceLength = segmentLength / Double(pieces)
                if length + pieceLength > maxLengthMeters && current.points.count >= 2 {
                    let last = current.points.count - 1
                    chunks.append(current)
                    current = Chunk(points: [current.points[last]], segment: [current.segment[last]], offset: [current.offset[last]])
                    length = 0
                }
                current.points.append(p)
                current.segment.append(i - 1)
                current.offset.append(along[i - 1] + segmentLength * f)
                length += pieceLength
            }
        }
        if current.points.count >= 2 { chunks.append(current) }
        return chunks
    }

    /// The nearest point of a chunk to `p`: distance, offset along the route, original segment index, point.
    static func nearest(_ p: Coordinate, chunk: Chunk, line: [Coordinate], along: [Double])
        -> (distance: Double, offset: Double, segment: Int, point: Coordinate)? {
        var best: (distance: Double, offset: Double, segment: Int, point: Coordinate)?
        for j in 1..<chunk.points.count {
            let a = chunk.points[j - 1], b = chunk.points[j]
            let (q, f) = Geodesy.project(p, ontoSegment: a, b)
            let d = Geodesy.distanceMeters(p, q)
            if d < (best?.distance ?? .infinity) {
                let offset = chunk.offset[j - 1] + (chunk.offset[j] - chunk.offset[j - 1]) * f
                best = (d, offset, chunk.segment[j], q)
            }
        }
        return best
    }
}
