import SQLite
import GeoCore

/// Writes places, streets, boundaries and the search structures into a new SQLite file, in batched
/// transactions.
final class PlacesIndexWriter {
    let database: Database
    private let taxonomy: CategoryTaxonomy
    private var categoryCodes: [String: Int64] = [:]
    private var nextID: Int64 = 1
    private var inTransaction = 0
    static let batchSize = 20_000

    init(path: String, taxonomy: CategoryTaxonomy) throws {
        database = try Database(path: path, mode: .readWriteCreate)
        self.taxonomy = taxonomy
        try database.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=FILE; PRAGMA cache_size=-65536;")
        try database.exec(PlacesSchema.create)
        insertPlace = try database.prepare("""
            INSERT INTO place(id, kind, osm_type, osm_id, name, lat_e7, lon_e7, min_lat_e7, min_lon_e7, max_lat_e7, max_lon_e7,
                housenumber, street, postcode, city, district, country_code, categories, osm_key, osm_value,
                phone, website, opening_hours, brand, cuisine, other_names, importance, flags, county, state, street_names, extra_tags)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,
                ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32)
            """)
        insertFTS = try database.prepare("INSERT INTO place_fts(rowid, name, context, keywords) VALUES(?1, ?2, ?3, ?4)")
        insertCategory = try database.prepare("INSERT OR IGNORE INTO place_category(code, place_id) VALUES(?1, ?2)")
        insertPOIRTree = try database.prepare("INSERT INTO poi_rtree VALUES(?1, ?2, ?2, ?3, ?3)")
        insertAddressRTree = try database.prepare("INSERT INTO address_rtree VALUES(?1, ?2, ?3, ?4, ?5)")
        insertShape = try database.prepare("INSERT INTO place_shape(id, shape) VALUES(?1, ?2)")
        insertStreetPiece = try database.prepare("INSERT INTO street_rtree VALUES(NULL, ?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        insertBoundary = try database.prepare("""
            INSERT INTO boundary(id, kind, admin_level, name, other_names, postcode, country_code, osm_id, area, shape)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
            """)
        insertBoundaryRTree = try database.prepare("INSERT INTO boundary_rtree VALUES(?1, ?2, ?3, ?4, ?5)")
        let insert = try database.prepare("INSERT INTO category(code, id) VALUES(?1, ?2)")
        for (i, category) in taxonomy.categories.enumerated() {
            try insert.run([.integer(Int64(i)), .text(category.id)])
            categoryCodes[category.id] = Int64(i)
        }
        try database.exec("BEGIN")
    }

    private let insertPlace: Statement
    private let insertFTS: Statement
    private let insertCategory: Statement
    private let insertPOIRTree: Statement
    private let insertAddressRTree: Statement
    private let insertShape: Statement
    private let insertStreetPiece: Statement
    private let insertBoundary: Statement
    private let insertBoundaryRTree: Statement

    /// Commits every `batchSize` rows, so SQLite's page cache, not a journal, holds the work in progress.
    private func batch() throws {
        inTransaction += 1
        if inTransaction >= Self.batchSize {
            try database.exec("COMMIT; BEGIN")
            inTransaction = 0
        }
    }

    func commit() throws { try database.exec("COMMIT") }

    static func lines(_ pairs: [(String, String)]) -> String? {
        pairs.isEmpty ? nil : pairs.map { "\($0.0)\t\(sanitize($0.1))" }.joined(separator: "\n")
    }

    static func sorted(_ names: [String: String]) -> [(String, String)] {
        names.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// Writes one place (with its outline, when it has one); returns its id.
    @discardableResult
    func write(_ r: PlaceRecord, shape: Shape? = nil) throws -> Int64 {
        let id = nextID
        nextID += 1
        func text(_ s: String?) -> SQLiteValue { s.map { .text($0) } ?? .null }
        func int(_ v: Int32?) -> SQLiteValue { v.map { .integer(Int64($0)) } ?? .null }
        let extent = r.extent.flatMap { $0.isEmpty || ($0.southWest == $0.northEast) ? nil : $0 }
        var flags = r.flags
        if shape == nil { flags.remove(.hasShape) }
        try insertPlace.run([
            .integer(id), .integer(Int64(r.kind.rawValue)), .integer(Int64(r.osmType.rawValue)), .integer(r.osmID),
            .text(r.name), .integer(Int64(r.position.latitudeE7)), .integer(Int64(r.position.longitudeE7)),
            int(extent?.minLatitudeE7), int(extent?.minLongitudeE7), int(extent?.maxLatitudeE7), int(extent?.maxLongitudeE7),
            text(r.houseNumber), text(r.street), text(r.postcode), text(r.city), text(r.district), text(r.countryCode),
            r.categories.isEmpty ? .null : .text(r.categories.joined(separator: ";")), .text(r.osmKey), .text(r.osmValue),
            text(r.phone), text(r.website), text(r.openingHours), text(r.brand), text(r.cuisine),
            text(Self.lines(Self.sorted(r.otherNames))), .real((r.importance * 1000).rounded() / 1000), .integer(Int64(flags.rawValue)),
            text(r.county), text(r.state), text(Self.lines(Self.sorted(r.streetNames))),
            text(Self.lines(r.extraTags.map { ($0.key, $0.value) })),
        ])
        for c in r.categories {
            if let code = categoryCodes[c] { try insertCategory.run([.integer(code), .integer(id)]) }
        }
        try insertFTS.run([.integer(id), .text(TextFolding.fold(nameText(r))), .text(TextFolding.fold(contextText(r))),
                           .text(TextFolding.fold(keywordText(r)))])
        switch r.kind {
        case .poi:
            try insertPOIRTree.run([.integer(id), .integer(Int64(r.position.latitudeE7)), .integer(Int64(r.position.longitudeE7))])
        case .address:
            let box = shape?.bounds ?? BoundingBox(minLatitudeE7: r.position.latitudeE7, minLongitudeE7: r.position.longitudeE7,
                                                   maxLatitudeE7: r.position.latitudeE7, maxLongitudeE7: r.position.longitudeE7)
            try insertAddressRTree.run([.integer(id), .integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                                        .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
        case .street, .locality, .postcode:
            break
        }
        if let shape { try insertShape.run([.integer(id), .blob(shape.encoded())]) }
        try batch()
        return id
    }

    /// Most points in one piece of street geometry (one R*Tree entry).
    static let pointsPerPiece = 8

    /// Writes a street's lines in pieces of a few points each, with their road class and speed limit,
    /// for nearest-street lookups.
    @discardableResult
    func writeStreetGeometry(_ lines: [(points: [Coordinate], road: RoadAttributes)], streetID: Int64) throws -> Int {
        var pieces = 0
        for line in lines where line.points.count >= 1 {
            let points = line.points.count == 1 ? [line.points[0], line.points[0]] : line.points
            var start = 0
            while start < points.count - 1 {
                let end = min(points.count, start + Self.pointsPerPiece)
                let piece = Array(points[start..<end])
                let box = PolygonGeometry.bounds(piece)
                try insertStreetPiece.run([
                    .integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                    .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7)),
                    .integer(streetID), .integer(line.road.code), .blob(StreetPiece.encode(piece)),
                ])
                try batch()
                pieces += 1
                start = end - 1
            }
        }
        return pieces
    }

    /// The name of the street nearest `p` within `maxMeters`, from what has been written so far.
    func nearestStreetName(to p: Coordinate, maxMeters: Double) throws -> String? {
        let box = SQLitePlaceStore.box(around: p, meters: maxMeters)
        let s = try database.cachedStatement("""
            SELECT street_id, points FROM street_rtree WHERE max_lat >= ?1 AND min_lat <= ?2 AND max_lon >= ?3 AND min_lon <= ?4
            """)
        try s.bind([.integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                    .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7))])
        var best: (id: Int64, meters: Double)?
        while try s.step() {
            let d = StreetPiece.nearest(to: p, on: StreetPiece.points(s.blob(1))).meters
            if d <= maxMeters && d < (best?.meters ?? .infinity) { best = (s.int64(0), d) }
        }
        s.reset()
        guard let best else { return nil }
        return try database.scalarText("SELECT name FROM place WHERE id = ?1", [.integer(best.id)])
    }

    /// The address of the smallest building outline written so far that contains `p`.
    func enclosingAddress(of p: Coordinate) throws -> PlaceAddress? {
        let s = try database.cachedStatement("""
            SELECT p.housenumber, p.street, p.postcode, p.city, s.shape FROM address_rtree r JOIN place p ON p.id = r.id
            JOIN place_shape s ON s.id = p.id WHERE r.min_lat <= ?1 AND r.max_lat >= ?1 AND r.min_lon <= ?2 AND r.max_lon >= ?2
            """)
        try s.bind([.integer(Int64(p.latitudeE7)), .integer(Int64(p.longitudeE7))])
        defer { s.reset() }
        var best: (address: PlaceAddress, area: Double)?
        while try s.step() {
            guard let shape = Shape(encoded: s.blob(4)), shape.contains(p), shape.areaSquareMeters < (best?.area ?? .infinity) else { continue }
            best = (PlaceAddress(houseNumber: s.nonEmptyText(0), streetName: s.nonEmptyText(1), postcode: s.nonEmptyText(2),
                                 municipality: s.nonEmptyText(3)), shape.areaSquareMeters)
        }
        return best?.address
    }

    func write(_ b: Boundary) throws {
        let id = nextID
        nextID += 1
        let kind: Int64, level: SQLiteValue
        switch b.kind {
        case .administrative(let l): (kind, level) = (0, .integer(Int64(l)))
        case .postalCode: (kind, level) = (1, .null)
        }
        try insertBoundary.run([
            .integer(id), .integer(kind), level, .text(b.name), Self.lines(Self.sorted(b.otherNames)).map { .text($0) } ?? .null,
            b.postcode.map { .text($0) } ?? .null, b.countryCode.map { .text($0) } ?? .null, .integer(b.osmID),
            .real(b.areaSquareMeters.rounded()), .blob(b.shape.encoded()),
        ])
        try insertBoundaryRTree.run([.integer(id), .integer(Int64(b.bounds.minLatitudeE7)), .integer(Int64(b.bounds.maxLatitudeE7)),
                                     .integer(Int64(b.bounds.minLongitudeE7)), .integer(Int64(b.bounds.maxLongitudeE7))])
        try batch()
    }

    static func sanitize(_ s: String) -> String {
        String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
    }

    /// What the name column holds: the name and every other name; for an address its street and number
    /// under every name of the street ("Keskuskatu 2", "Centralgatan 2").
    func nameText(_ r: PlaceRecord) -> String {
        var parts: [String] = []
        if r.kind == .address {
            parts.append([r.street, r.houseNumber].compactMap { $0 }.joined(separator: " "))
            for street in Set(r.streetNames.values).sorted() where street != r.street {
                parts.append([street, r.houseNumber].compactMap { $0 }.joined(separator: " "))
            }
            if !r.name.isEmpty { parts.append(r.name) }
        } else {
            parts.append(r.name)
        }
        for value in r.otherNames.values.sorted() where !parts.contains(value) { parts.append(value) }
        return parts.joined(separator: "\n")
    }

    private func contextText(_ r: PlaceRecord) -> String {
        var parts: [String?] = []
        if r.kind == .poi {
            parts += [r.street, r.houseNumber]
            parts += Set(r.streetNames.values).sorted().filter { $0 != r.street }
        }
        parts += [r.district, r.city, r.postcode, r.county, r.state]
        return parts.compactMap { $0 }.joined(separator: "\n")
    }

    private func keywordText(_ r: PlaceRecord) -> String {
        var parts = r.categories.compactMap { taxonomy.category(id: $0)?.name }
        parts += r.keywords
        return parts.joined(separator: "\n")
    }

    /// Copies the FTS vocabulary into `vocab` and indexes its trigrams for typo correction. Beside each term's
    /// number of rows, the number with it in a name or keyword: the count bm25 needs when a search limits the
    /// word to those columns, which FTS5 would otherwise count on every query from the term's whole doclist.
    func buildVocabulary() throws -> Int {
        try database.exec("CREATE VIRTUAL TABLE temp.fts_instances USING fts5vocab(main, place_fts, instance)")
        var nameDocs: [String: Int64] = [:]
        let names = try database.prepare("SELECT term, COUNT(DISTINCT doc) FROM temp.fts_instances WHERE col IN ('name', 'keywords') GROUP BY term")
        while try names.step() { nameDocs[names.text(0)] = names.int64(1) }
        names.reset()
        try database.exec("DROP TABLE temp.fts_instances")
        try database.exec("CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, place_fts, row)")
        let select = try database.prepare("SELECT term, doc FROM temp.fts_terms")
        let insertTerm = try database.prepare("INSERT INTO vocab(id, term, docs, name_docs) VALUES(?1, ?2, ?3, ?4)")
        let insertGram = try database.prepare("INSERT OR IGNORE INTO vocab_gram(gram, length, term_id) VALUES(?1, ?2, ?3)")
        var id: Int64 = 0
        while try select.step() {
            let term = select.text(0)
            id += 1
            try insertTerm.run([.integer(id), .text(term), .integer(select.int64(1)), .integer(nameDocs[term] ?? 0)])
            let scalars = Array(term.unicodeScalars)
            guard TermGrams.isIndexable(scalars) else { continue }
            for gram in TermGrams.grams(scalars) {
                try insertGram.run([.integer(gram), .integer(Int64(scalars.count)), .integer(id)])
            }
        }
        select.reset()
        try database.exec("DROP TABLE temp.fts_terms")
        return Int(id)
    }

    func setMeta(_ key: String, _ value: String) throws {
        try database.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)").run([.text(key), .text(value)])
    }

    /// Indexes, FTS merge, statistics for the query planner.
    func finish() throws {
        try database.exec(PlacesSchema.indexes)
        try database.exec("INSERT INTO place_fts(place_fts) VALUES('optimize')")
        try database.exec("ANALYZE")
    }
}
