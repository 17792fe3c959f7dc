import GeoCore

extension SQLitePlaceStore {
    /// What a query number matching an address's house number adds to its text score.
    static let houseNumberBonus = 0.15

    /// The first word of a house number as the index folds it ("12 A" → "12", "5b" → "5b").
    static func firstToken(_ number: String) -> String {
        String(number.lowercased().prefix { $0.isLetter || $0.isNumber })
    }

    /// Scores candidates (text match, bm25, importance, distance), applies the radius, and sorts best first.
    /// `lineDistances`: streets' distances from the bias point to their own line, where that is
    /// nearer than their centre (`addStreetsThroughBias`).
    func rank(_ candidates: [Candidate], words: [QueryWord], query: PlaceSearchQuery, filter: SearchFilter,
              lineDistances: [Int64: Double] = [:], session: PlaceSession) -> [PlaceResult] {
        let bestBM25 = candidates.map { -$0.bm25 }.max() ?? 0
        // Words left out of the match (unknown, uncorrectable) lower every text score.
        let coverage = words.isEmpty ? 1 : Double(words.filter { !$0.isDropped }.count) / Double(words.count)
        var seen = Set<Int64>()
        var out: [PlaceResult] = []
        out.reserveCapacity(candidates.count)
        let nameWords = words.filter { !$0.inContextOnly }
        for c in candidates where seen.insert(c.place.id).inserted && query.accepts(c.place) {
            var place = finish(c.place, language: query.language)
            if let bias = filter.bias {
                let d = min(Geodesy.distanceMeters(bias, place.position), lineDistances[place.id] ?? .infinity)
                if let r = filter.radiusMeters, d > r { continue }
                place.distanceMeters = d
            }
            var text = nameWords.isEmpty ? 0 : nameScore(c.place, nameWords, session).score
            // A number in the query means a house number: an address with it comes before a POI named alike.
            if c.place.kind == .address, let first = c.place.address.houseNumber.map(Self.firstToken), !first.isEmpty,
               nameWords.contains(where: { $0.isNumeric && !$0.isDropped && $0.match(first) > 0 }) {
                text += Self.houseNumberBonus
            }
            // An unnamed POI called by its category ("Playground") is not a name match.
            if c.place.kind == .poi, c.place.categories.contains(where: { taxonomy.category(id: $0)?.name == c.place.name }) { text *= 0.5 }
            if c.viaCategory {
                // Named by its category: as good as a fair name match.
                text = max(text, words.isEmpty ? 0.8 : c.categoryStrength)
            } else {
                if bestBM25 > 0 { text += 0.2 * (-c.bm25 / bestBM25) }
                text *= coverage
            }
            var score = text + query.biasWeighting.importanceWeight(hasBias: filter.bias != nil) * place.importance
            if let d = place.distanceMeters { score += query.biasWeighting.distanceScore(d) }
            place.score = (score * 1000).rounded() / 1000
            out.append(place)
        }
        out.sort { ($0.score, -($0.distanceMeters ?? 0), -$0.id) > ($1.score, -($1.distanceMeters ?? 0), -$1.id) }
        return out
    }

    /// The best match of the query words against the place's names (its address for plain addresses).
    func nameScore(_ place: PlaceResult, _ words: [QueryWord], _ session: PlaceSession) -> (score: Double, allWordsInName: Bool) {
        let primary: String
        if place.kind == .address {
            primary = [place.address.streetName, place.address.houseNumber, place.name.isEmpty ? nil : place.name]
                .compactMap { $0 }.joined(separator: " ")
        } else {
            primary = place.name
        }
        var best = TextMatchScore.score(words, nameTokens: session.words(primary))
        if best.allWordsInName && best.score >= 1.3 { return best }
        if place.kind == .address, let number = place.address.houseNumber {
            // The same address under another name of its street ("Centralgatan 2").
            for street in Set(place.streetNames.values) {
                let s = TextMatchScore.score(words, nameTokens: session.words(street + " " + number))
                if s.score > best.score { best = s }
            }
        }
        for name in place.otherNames.values {
            let s = TextMatchScore.score(words, nameTokens: session.words(name))
            if s.score > best.score { best = s }
        }
        if place.kind == .poi, let street = place.address.streetName {
            // "Kiasma Mannerheimintie": name words plus address words.
            let s = TextMatchScore.score(words, nameTokens: session.words(primary + " " + street + " " + (place.address.houseNumber ?? "")))
            if s.allWordsInName && s.score * 0.9 > best.score { best = (s.score * 0.9, true) }
        }
        return best
    }
}
