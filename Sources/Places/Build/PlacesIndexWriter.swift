import SQLite
import GeoCore

/// Writes places, streets and the search structures into a new SQLite file.
final class PlacesIndexWriter {
    let database: Database
    private let taxonomy: CategoryTaxonomy
    private var categoryCodes: [String: Int64] = [:]
    private var nextID: Int64 = 1

    init(path: String, taxonomy: CategoryTaxonomy) throws {
        database = try Database(path: path, mode: .readWriteCreate)
        self.taxonomy = taxonomy
        try database.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA temp_store=MEMORY; PRAGMA cache_size=-65536;")
        try database.exec(PlacesSchema.create)
        insertPlace = try database.prepare("""
            INSERT INTO place(id, kind, osm_type, osm_id, name, lat_e7, lon_e7, min_lat_e7, min_lon_e7, max_lat_e7, max_lon_e7,
                housenumber, street, postcode, city, district, country_code, categories, osm_key, osm_value,
                phone, website, opening_hours, brand, cuisine, other_names, importance, flags)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24,
                ?25, ?26, ?27, ?28)
            """)
        insertFTS = try database.prepare("INSERT INTO place_fts(rowid, name, context, keywords) VALUES(?1, ?2, ?3, ?4)")
        insertCategory = try database.prepare("INSERT OR IGNORE INTO place_category(code, place_id) VALUES(?1, ?2)")
        insertPOIRTree = try database.prepare("INSERT INTO poi_rtree VALUES(?1, ?2, ?2, ?3, ?3)")
        insertAddressRTree = try database.prepare("INSERT INTO address_rtree VALUES(?1, ?2, ?2, ?3, ?3)")
        insertSegment = try database.prepare("INSERT INTO street_rtree VALUES(NULL, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")
        let insert = try database.prepare("INSERT INTO category(code, id) VALUES(?1, ?2)")
        for (i, category) in taxonomy.categories.enumerated() {
            try insert.run([.integer(Int64(i)), .text(category.id)])
            categoryCodes[category.id] = Int64(i)
        }
    }

    private let insertPlace: Statement
    private let insertFTS: Statement
    private let insertCategory: Statement
    private let insertPOIRTree: Statement
    private let insertAddressRTree: Statement
    private let insertSegment: Statement

    func begin() throws { try database.exec("BEGIN") }
    func commit() throws { try database.exec("COMMIT") }

    /// Writes one place; returns its id.
    @discardableResult
    func write(_ r: PlaceRecord) throws -> Int64 {
        let id = nextID
        nextID += 1
        func text(_ s: String?) -> SQLiteValue { s.map { .text($0) } ?? .null }
        func int(_ v: Int32?) -> SQLiteValue { v.map { .integer(Int64($0)) } ?? .null }
        let extent = r.extent.flatMap { $0.isEmpty || ($0.southWest == $0.northEast) ? nil : $0 }
        let otherNames = r.otherNames.isEmpty ? nil : r.otherNames.sorted { $0.key < $1.key }
            .map { "\($0.key)\t\(Self.sanitize($0.value))" }.joined(separator: "\n")
        try insertPlace.run([
            .integer(id), .integer(Int64(r.kind.rawValue)), .integer(Int64(r.osmType.rawValue)), .integer(r.osmID),
            .text(r.name), .integer(Int64(r.position.latitudeE7)), .integer(Int64(r.position.longitudeE7)),
            int(extent?.minLatitudeE7), int(extent?.minLongitudeE7), int(extent?.maxLatitudeE7), int(extent?.maxLongitudeE7),
            text(r.houseNumber), text(r.street), text(r.postcode), text(r.city), text(r.district), text(r.countryCode),
            r.categories.isEmpty ? .null : .text(r.categories.joined(separator: ";")), .text(r.osmKey), .text(r.osmValue),
            text(r.phone), text(r.website), text(r.openingHours), text(r.brand), text(r.cuisine), text(otherNames),
            .real((r.importance * 1000).rounded() / 1000), .integer(Int64(r.flags.rawValue)),
        ])
        for c in r.categories {
            if let code = categoryCodes[c] { try insertCategory.run([.integer(code), .integer(id)]) }
        }
        try insertFTS.run([.integer(id), .text(nameText(r)), .text(contextText(r)), .text(keywordText(r))])
        switch r.kind {
        case .poi:
            try insertPOIRTree.run([.integer(id), .integer(Int64(r.position.latitudeE7)), .integer(Int64(r.position.longitudeE7))])
        case .address:
            try insertAddressRTree.run([.integer(id), .integer(Int64(r.position.latitudeE7)), .integer(Int64(r.position.longitudeE7))])
        case .street, .locality:
            break
        }
        return id
    }

    /// Writes the street segments of a street place, for nearest-street lookups.
    func writeSegments(_ segments: [(Coordinate, Coordinate)], streetID: Int64) throws {
        for (a, b) in segments {
            try insertSegment.run([
                .integer(Int64(min(a.latitudeE7, b.latitudeE7))), .integer(Int64(max(a.latitudeE7, b.latitudeE7))),
                .integer(Int64(min(a.longitudeE7, b.longitudeE7))), .integer(Int64(max(a.longitudeE7, b.longitudeE7))),
                .integer(streetID), .integer(Int64(a.latitudeE7)), .integer(Int64(a.longitudeE7)),
                .integer(Int64(b.latitudeE7)), .integer(Int64(b.longitudeE7)),
            ])
        }
    }

    static func sanitize(_ s: String) -> String {
        String(s.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
    }

    private func nameText(_ r: PlaceRecord) -> String {
        var parts: [String] = []
        if r.kind == .address {
            parts.append([r.street, r.houseNumber].compactMap { $0 }.joined(separator: " "))
            if !r.name.isEmpty { parts.append(r.name) }
        } else {
            parts.append(r.name)
        }
        for value in r.otherNames.values.sorted() where !parts.contains(value) { parts.append(value) }
        return parts.joined(separator: "\n")
    }

    private func contextText(_ r: PlaceRecord) -> String {
        var parts: [String?] = []
        if r.kind == .poi { parts += [r.street, r.houseNumber] }
        parts += [r.district, r.city, r.postcode]
        return parts.compactMap { $0 }.joined(separator: "\n")
    }

    private func keywordText(_ r: PlaceRecord) -> String {
        var parts = r.categories.compactMap { taxonomy.category(id: $0)?.name }
        parts += r.keywords
        return parts.joined(separator: "\n")
    }

    /// Copies the FTS vocabulary into `vocab` and indexes its trigrams for typo correction.
    func buildVocabulary() throws -> Int {
        try database.exec("CREATE VIRTUAL TABLE temp.fts_terms USING fts5vocab(main, place_fts, row)")
        let select = try database.prepare("SELECT term, doc FROM temp.fts_terms")
        let insertTerm = try database.prepare("INSERT INTO vocab(id, term, docs) VALUES(?1, ?2, ?3)")
        let insertGram = try database.prepare("INSERT OR IGNORE INTO vocab_gram(gram, length, term_id) VALUES(?1, ?2, ?3)")
        var id: Int64 = 0
        while try select.step() {
            let term = select.text(0)
            id += 1
            try insertTerm.run([.integer(id), .text(term), .integer(select.int64(1))])
            let scalars = Array(term.unicodeScalars)
            guard TermGrams.isIndexable(scalars) else { continue }
            for gram in TermGrams.grams(scalars) {
                try insertGram.run([.integer(gram), .integer(Int64(scalars.count)), .integer(id)])
            }
        }
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
