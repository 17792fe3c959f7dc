import SQLite
import GeoCore

extension SQLitePlaceStore {
    /// Candidates fetched from FTS before re-ranking.
    static let candidateLimit = 200
    /// Most words of a query that take part (the rest is ignored).
    static let maximumWords = 12

    struct Candidate {
        var place: PlaceResult
        /// bm25 (lower is better; 0 for category matches).
        var bm25: Double
        /// Found through a category the text named rather than through its words.
        var viaCategory: Bool
        /// How well the category matched the text: 1 for its name, less for a prefix of it.
        var categoryStrength = 1.0
    }

    public func search(_ asked: PlaceSearchQuery) throws -> PlaceSearchResponse {
        var query = asked
        let primary = query.structured?.primary
        if let primary { query.kinds.formIntersection(primary.kinds) }
        let limit = min(max(query.limit, 1), 100), offset = min(max(query.offset, 0), 1_900)
        return try withSession { session in
            let filter = SearchFilter(query: query, store: self, session: session)
            if filter.isImpossible { return .empty }
            let folded = Array(Abbreviations.joinSplitForms(session.words(primary?.text ?? query.text)).prefix(Self.maximumWords))
            var words = folded.enumerated().map { QueryWord(text: $0.element, isPrefix: query.typeahead && $0.offset == folded.count - 1) }
            // A structured search's other fields must match the address around the name.
            for field in primary?.others ?? [] {
                for w in Abbreviations.joinSplitForms(session.words(field)).prefix(Self.maximumWords) {
                    var word = QueryWord(text: w, isPrefix: false)
                    word.inContextOnly = true
                    words.append(word)
                }
            }
            try addVariants(&words, session: session)
            if let last = words.indices.last, words[last].isPrefix, words[last].isNumeric, words[last].text.unicodeScalars.count == 1,
               words.contains(where: { !$0.isNumeric && !$0.inContextOnly }) {
                words[last].matchesHouseNumberOnly = true
            }
            let needed = min(Self.candidateLimit, max(50, (offset + limit) * 3))
            var candidates: [Candidate] = []
            var fuzzy = false
            var matchedCategories: [String] = []

            if words.isEmpty {
                // No words: a category listing (nearest first around the bias, else most important first).
                guard filter.categoryCodes != nil || query.bias != nil else { return .empty }
                candidates = try categoryCandidates(filter.categoryCodes, filter: filter, needed: needed, session: session)
            } else {
                let phrase = folded.joined(separator: " ")
                // Words that name a category ("gas station") must all be known to be read as words too.
                let namedCategories = taxonomy.phrase(phrase)
                if namedCategories.isEmpty {
                    fuzzy = try correctUnknownWords(&words, query: query, session: session)
                } else {
                    for i in words.indices where try !isKnown(words[i], session) { words[i].isDropped = true }
                }
                if words.allSatisfy({ !$0.isDropped }) || (namedCategories.isEmpty && words.contains { !$0.isDropped }) {
                    candidates = try textCandidates(words, filter: filter, needed: needed, session: session)
                }
                // A house number the street does not have: answer with the street (and its numbers) rather than
                // with another street's number by reading a known word as a typo.
                if candidates.isEmpty && namedCategories.isEmpty && words.contains(where: { $0.isNumeric && !$0.isDropped })
                    && words.contains(where: { !$0.isNumeric && !$0.isDropped }) {
                    var streetOnly = words
                    for i in streetOnly.indices where streetOnly[i].isNumeric { streetOnly[i].isDropped = true }
                    candidates = try textCandidates(streetOnly, filter: filter, needed: needed, session: session)
                    if !candidates.isEmpty { words = streetOnly }
                }
                if candidates.isEmpty && query.maxFuzzyLevel >= 2 && namedCategories.isEmpty {
                    if try correctAllWords(&words, query: query, session: session) {
                        fuzzy = true
                        candidates = try textCandidates(words, filter: filter, needed: needed, session: session)
                    }
                }
                // The text names a category ("gas station", "restaurants"): include its POIs. While typing, a
                // category whose name starts with the text ("restau") is included too, ranked lower.
                if filter.kindMask & (1 << PlaceKind.poi.rawValue) != 0 {
                    var exact = namedCategories.compactMap { session.categoryCodes[taxonomy.categories[$0].id] }
                    var started = query.typeahead && phrase.count >= 4
                        ? taxonomy.phrases(startingWith: phrase).filter { !namedCategories.contains($0) }
                            .compactMap { session.categoryCodes[taxonomy.categories[$0].id] } : []
                    if let allowed = filter.categoryCodes {
                        exact = exact.filter(allowed.contains)
                        started = started.filter(allowed.contains)
                    }
                    for (codes, strength) in [(exact, 1.0), (started, 0.7)] where !codes.isEmpty {
                        let known = Set(candidates.map(\.place.id))
                        candidates += try categoryCandidates(codes, filter: filter, needed: needed, session: session)
                            .filter { !known.contains($0.place.id) }
                            .map { var c = $0; c.categoryStrength = strength; return c }
                    }
                    let codes = Set(exact + started)
                    matchedCategories = taxonomy.categories.filter { session.categoryCodes[$0.id].map(codes.contains) ?? false }.map(\.id)
                }
            }
            var lineDistances: [Int64: Double] = [:]
            if let bias = filter.bias, !words.isEmpty {
                lineDistances = try addStreetsThroughBias(bias, to: &candidates, words: words, filter: filter, session: session)
            }
            var ranked = rank(candidates, words: words, query: query, filter: filter, lineDistances: lineDistances, session: session)
            let total = ranked.count
            ranked = Array(ranked.dropFirst(offset).prefix(limit))
            let normalized = words.filter { !$0.isDropped }
                .map { word in word.isCorrected ? (word.forms.first { $0.edits > 0 }?.term ?? word.text) : word.text }
                .joined(separator: " ")
            return PlaceSearchResponse(results: ranked, totalResults: total, fuzzyLevel: fuzzy ? 2 : 1,
                                       normalizedQuery: normalized, matchedCategories: matchedCategories)
        }
    }

    /// Edits allowed for a word of `length` letters at a fuzzy level.
    static func maxEdits(length: Int, fuzzyLevel: Int) -> Int {
        guard fuzzyLevel >= 2, length >= TermGrams.minimumLength else { return 0 }
        if fuzzyLevel >= 3 { return length >= 5 ? 2 : 1 }
        return length >= 8 ? 2 : 1
    }

    func isKnown(_ word: QueryWord, _ session: PlaceSession) throws -> Bool {
        for form in word.forms where form.edits == 0 {
            if word.isPrefix ? try session.hasWord(startingWith: form.term) : try session.documentCount(form.term) > 0 { return true }
        }
        return false
    }

    /// Other spellings of whole words that the index has: abbreviations and their expansions ("str" and
    /// "strasse", "hauptstr" and "hauptstrasse"), as exact forms of the word.
    func addVariants(_ words: inout [QueryWord], session: PlaceSession) throws {
        for i in words.indices where !words[i].isPrefix && !words[i].isNumeric {
            for variant in Abbreviations.standard.variants(of: words[i].text) where try session.documentCount(variant) > 0 {
                words[i].forms.append((variant, 0))
            }
        }
    }

    /// Replaces words the index has never seen by their likely corrections; drops those without any.
    /// Returns whether a correction was made.
    func correctUnknownWords(_ words: inout [QueryWord], query: PlaceSearchQuery, session: PlaceSession) throws -> Bool {
        var corrected = false
        for i in words.indices {
            let word = words[i]
            guard try !isKnown(word, session) else { continue }
            let edits = word.isNumeric ? 0 : Self.maxEdits(length: word.text.unicodeScalars.count + (word.isPrefix ? 1 : 0),
                                                               fuzzyLevel: query.maxFuzzyLevel)
            let fixes = edits > 0 ? try session.corrections(of: word.text, prefix: word.isPrefix, maxEdits: edits) : []
            if fixes.isEmpty {
                // A structured field's word the index does not know means no place has that address part.
                if !word.inContextOnly { words[i].isDropped = true }
            } else {
                words[i].forms = fixes.map { ($0.term, $0.edits) }
                corrected = true
            }
        }
        return corrected
    }

    /// Second chance when nothing matched: known words may be misspellings of other words too.
    func correctAllWords(_ words: inout [QueryWord], query: PlaceSearchQuery, session: PlaceSession) throws -> Bool {
        var changed = false
        for i in words.indices where !words[i].isDropped && !words[i].isNumeric && !words[i].isCorrected {
            let edits = Self.maxEdits(length: words[i].text.unicodeScalars.count, fuzzyLevel: query.maxFuzzyLevel)
            guard edits > 0 else { continue }
            let fixes = try session.corrections(of: words[i].text, prefix: words[i].isPrefix, maxEdits: edits)
            guard !fixes.isEmpty else { continue }
            words[i].forms += fixes.map { ($0.term, $0.edits) }
            changed = true
        }
        return changed
    }

    /// Above this many estimated matches bm25 is left out of the candidate order: scoring ten thousand rows costs
    /// about 10 ms, and for a short common prefix ("Via", "Rua") importance and distance order them as well.
    static let bm25RowLimit = 1_500

    private static let textSQL = textSQL(bm25: true)
    private static let cheapTextSQL = textSQL(bm25: false)

    private static func textSQL(bm25: Bool) -> String { """
        SELECT \(bm25 ? "\(FTS5RankFunction.name)(place_fts, \(PlacesSchema.bm25Weights), ?15)" : "0.0") AS b, \(PlaceRow.columns)
        FROM place_fts JOIN place p ON p.id = place_fts.rowid
        WHERE place_fts MATCH ?1
          AND ((1 << p.kind) & ?2) != 0
          AND p.lat_e7 BETWEEN ?3 AND ?4 AND p.lon_e7 BETWEEN ?5 AND ?6
          AND (?7 IS NULL OR EXISTS (SELECT 1 FROM place_category c
                                     WHERE c.code IN (SELECT value FROM json_each(?7)) AND c.place_id = p.id))
          AND (?14 IS NULL OR p.kind != 0 OR p.housenumber LIKE ?14)
        ORDER BY b - 2.0 * p.importance
            + ?8 * ((p.lat_e7 - ?9) * (p.lat_e7 - ?9) * 1.0 + ((p.lon_e7 - ?10) * ?11) * ((p.lon_e7 - ?10) * ?11))
                 / ((p.lat_e7 - ?9) * (p.lat_e7 - ?9) * 1.0 + ((p.lon_e7 - ?10) * ?11) * ((p.lon_e7 - ?10) * ?11) + ?12)
        LIMIT ?13
        """
    }

    /// About how many places all the words match: the smallest document count of any word.
    func estimatedMatches(_ words: [QueryWord], session: PlaceSession) throws -> Int {
        var estimate = Int.max
        for word in words where !word.isDropped && !word.matchesHouseNumberOnly {
            var count = 0
            for form in word.forms {
                let n = word.isPrefix ? try session.documentCount(startingWith: form.term) : try session.documentCount(form.term)
                count = n == Int.max ? Int.max : count &+ n
                if count == Int.max { break }
            }
            estimate = min(estimate, count)
        }
        return estimate
    }

    /// Places matching the words: first with every word in a name or keyword (cheap and precise: "00100" is the
    /// postcode, not the thousands of places whose address holds it), then with prefix words in names only, then
    /// with the words anywhere, until one finds something.
    func textCandidates(_ words: [QueryWord], filter: SearchFilter, needed: Int, session: PlaceSession) throws -> [Candidate] {
        let useBM25 = try estimatedMatches(words, session: session) <= Self.bm25RowLimit
        let number = words.first { $0.matchesHouseNumberOnly && !$0.isDropped }.map { $0.text + "%" }
        var passes: [QueryWord.NameColumns] = [.none]
        if words.contains(where: { $0.isPrefix && !$0.isDropped && !$0.matchesHouseNumberOnly }) { passes.insert(.prefixes, at: 0) }
        if !words.contains(where: \.inContextOnly) { passes.insert(.all, at: 0) }
        for (i, pass) in passes.enumerated() {
            let counts = useBM25 ? try phraseCounts(QueryWord.wholeWordPhrases(words, inNames: pass), session: session) : nil
            let found = try textCandidates(QueryWord.ftsQuery(words, inNames: pass), number: number, bm25: counts, filter: filter,
                                           needed: needed, session: session)
            if !found.isEmpty || i == passes.count - 1 { return found }
        }
        return []
    }

    /// Each phrase's number of matching rows as `bm25_counted` takes them: the vocabulary's count for a whole
    /// word (in any column, or in names and keywords), -1 (FTS5 counts it) otherwise. Counting reads the phrase's
    /// whole doclist: for a city's name, most of the index. A count of 0 is exact too (a city's name is in no
    /// place's name), and a phrase no row has adds nothing to any row's score.
    func phraseCounts(_ phrases: [(term: String, inNames: Bool)?], session: PlaceSession) throws -> String {
        try phrases.map { phrase in
            try phrase.map { String(try session.documentCount($0.term, inNames: $0.inNames)) } ?? "-1"
        }.joined(separator: ",")
    }

    /// `bm25`: the phrase counts for the bm25 order, nil to leave bm25 out.
    private func textCandidates(_ fts: String, number: String?, bm25: String?, filter: SearchFilter, needed: Int,
                                session: PlaceSession) throws -> [Candidate] {
        let s = try session.database.cachedStatement(bm25 != nil ? Self.textSQL : Self.cheapTextSQL)
        defer { s.reset() }
        try s.bind(fts, at: 1)
        if let bm25 { try s.bind(bm25, at: 15) }
        try s.bind(number, at: 14)
        try filter.bind(s, kindMaskAt: 2, boxAt: 3, categoriesAt: 7)
        if let bias = filter.bias {
            // Distance enters the order as d²/(d² + 3 km²), worth up to 3 bm25 points.
            try s.bind(3.0, at: 8)
            try s.bind(Int(bias.latitudeE7), at: 9)
            try s.bind(Int(bias.longitudeE7), at: 10)
            try s.bind(Geodesy.cosine(ofLatitude: bias.latitude), at: 11)
            let scale = 3_000 / Geodesy.metersPerDegreeLatitude * 1e7
            try s.bind(scale * scale, at: 12)
        } else {
            try s.bind(0.0, at: 8)
            try s.bind(0, at: 9)
            try s.bind(0, at: 10)
            try s.bind(1.0, at: 11)
            try s.bind(1.0, at: 12)
        }
        try s.bind(needed, at: 13)
        var out: [Candidate] = []
        while try s.step() {
            out.append(Candidate(place: PlaceRow.decode(s, at: 1), bm25: s.double(0), viaCategory: false))
        }
        return out
    }

    /// POIs of the given categories (all POIs when `codes` is nil): nearest first around the bias, else most important first.
    func categoryCandidates(_ codes: [Int64]?, filter: SearchFilter, needed: Int, session: PlaceSession) throws -> [Candidate] {
        if let bias = filter.bias {
            let radius = filter.radiusMeters ?? 50_000
            return try nearbyPlaces(around: bias, radiusMeters: radius, codes: codes, ftsQuery: nil, box: filter.box,
                                    needed: needed, session: session)
                .map { Candidate(place: $0, bm25: 0, viaCategory: true) }
        }
        guard let codes else { return [] }
        let s = try session.database.cachedStatement("""
            SELECT \(PlaceRow.columns) FROM place p
            WHERE p.id IN (SELECT place_id FROM place_category WHERE code IN (SELECT value FROM json_each(?1)))
              AND p.lat_e7 BETWEEN ?2 AND ?3 AND p.lon_e7 BETWEEN ?4 AND ?5
            ORDER BY p.importance DESC, p.id LIMIT ?6
            """)
        defer { s.reset() }
        let box = filter.box ?? Self.everywhere
        try s.bind([.text(Self.jsonArray(codes)), .integer(Int64(box.minLatitudeE7)), .integer(Int64(box.maxLatitudeE7)),
                    .integer(Int64(box.minLongitudeE7)), .integer(Int64(box.maxLongitudeE7)), .integer(Int64(needed))])
        var out: [Candidate] = []
        while try s.step() { out.append(Candidate(place: PlaceRow.decode(s), bm25: 0, viaCategory: true)) }
        return out
    }

    static let everywhere = BoundingBox(minLatitudeE7: -900_000_000, minLongitudeE7: -1_800_000_000,
                                        maxLatitudeE7: 900_000_000, maxLongitudeE7: 1_800_000_000)
}
