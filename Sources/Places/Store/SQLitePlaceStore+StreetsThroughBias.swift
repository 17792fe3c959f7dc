import GeoCore

extension SQLitePlaceStore {
    /// How far from the bias point a street's own line is looked at, not only its centre.
    static let streetLineMeters = 250.0

    /// Streets whose line passes within `streetLineMeters` of the bias point and whose name has every
    /// word: added to `candidates` when the text order left them out, and their distance to the line
    /// returned for the ranking. A street is stored with one position, the middle of its line, so a
    /// long road through the bias point ("Carretera General 3" across Andorra) was otherwise ranked
    /// by a centre kilometres away, behind every short street of the same prefix nearby.
    func addStreetsThroughBias(_ bias: Coordinate, to candidates: inout [Candidate], words: [QueryWord],
                               filter: SearchFilter, session: PlaceSession) throws -> [Int64: Double] {
        guard filter.kindMask & (1 << PlaceKind.street.rawValue) != 0, filter.categoryCodes == nil else { return [:] }
        let nameWords = words.filter { !$0.inContextOnly }
        guard !nameWords.isEmpty else { return [:] }
        let hits = try nearestStreets(to: bias, maxMeters: Self.streetLineMeters, firstMeters: Self.streetLineMeters,
                                      limit: 64, session: session)
        var known = Set(candidates.map(\.place.id))
        var distances: [Int64: Double] = [:]
        for hit in hits where nameScore(hit.place, nameWords, session).allWordsInName {
            distances[hit.place.id] = hit.distance
            guard known.insert(hit.place.id).inserted, filter.box.map({ $0.contains(hit.place.position) }) ?? true else { continue }
            candidates.append(Candidate(place: hit.place, bm25: 0, viaCategory: false))
        }
        return distances
    }
}
