import Testing
import MapsTestSupport
import SQLite
@testable import Places

/// `bm25_counted` with the vocabulary's phrase counts scores every row exactly as FTS5's `bm25` does (so the
/// search order is the same), without reading the doclist of a word most rows have.
@Suite("bm25 with the vocabulary's counts", .enabled(if: Fixtures.helsinkiAvailable)) struct RankFunctionTests {
    let built: SampleIndexes.Built
    let session: PlaceSession

    init() throws {
        built = try SampleIndexes.helsinki.get()
        session = try PlaceSession(path: built.path)
    }

    static func word(_ text: String, prefix: Bool = false, contextOnly: Bool = false, also: [String] = []) -> QueryWord {
        var w = QueryWord(text: text, isPrefix: prefix)
        w.inContextOnly = contextOnly
        w.forms += also.map { ($0, 0) }
        return w
    }

    static let queries: [[QueryWord]] = [
        [word("mannerheimintie"), word("5"), word("helsinki")],
        [word("aleksanterinkatu"), word("52")],
        [word("kaivokatu"), word("1"), word("helsinki", contextOnly: true)],
        // Kluuvi is in 753 rows, 751 of them in the address part (`{context}`): a count must not be taken for it.
        [word("mikonkatu"), word("kluuvi", contextOnly: true)],
        [word("mikonkatu"), word("kluuvi")],
        [word("manner", prefix: true), word("helsinki")],
        [word("bulevardi", also: ["mikonkatu"]), word("helsinki")],
        [word("kiasma")],
    ]

    /// Each row's (bm25, bm25_counted) for the words as the search matches them.
    func scores(_ words: [QueryWord], _ names: QueryWord.NameColumns, counts: String? = nil) throws -> [(Double, Double)] {
        let store = built.store
        let given = try counts ?? store.phraseCounts(QueryWord.wholeWordPhrases(words, inNames: names), session: session)
        let s = try session.database.prepare("""
            SELECT bm25(place_fts, \(PlacesSchema.bm25Weights)), \(FTS5RankFunction.name)(place_fts, \(PlacesSchema.bm25Weights), ?2)
            FROM place_fts WHERE place_fts MATCH ?1
            """)
        try s.bind(QueryWord.ftsQuery(words, inNames: names), at: 1)
        try s.bind(given, at: 2)
        var out: [(Double, Double)] = []
        while try s.step() { out.append((s.double(0), s.double(1))) }
        return out
    }

    @Test("the same score for every row", arguments: 0..<queries.count)
    func sameScores(query: Int) throws {
        for names in [QueryWord.NameColumns.none, .prefixes, .all] {
            let rows = try scores(Self.queries[query], names)
            if names == .none { #expect(!rows.isEmpty) }
            for (bm25, counted) in rows { #expect(bm25 == counted, "\(QueryWord.ftsQuery(Self.queries[query], inNames: names))") }
        }
    }

    /// Kluuvi is in 753 rows but in the name of few: limited to names and keywords, its count is the smaller one,
    /// taken from the vocabulary rather than from its doclist.
    @Test("words limited to names and keywords are counted from the vocabulary too")
    func namesOnlyCounts() throws {
        let words = [Self.word("mikonkatu"), Self.word("kluuvi")]
        let inNames = try built.store.phraseCounts(QueryWord.wholeWordPhrases(words, inNames: .all), session: session)
        let anywhere = try built.store.phraseCounts(QueryWord.wholeWordPhrases(words, inNames: .none), session: session)
        #expect(!inNames.contains("-1"))
        #expect(inNames != anywhere)
    }

    @Test("a count is used as given, and a list of another length is counted")
    func countsAreUsed() throws {
        let words = Self.queries[0]
        let wrong = try scores(words, .none, counts: "1,1,1")
        #expect(wrong.contains { $0.0 != $0.1 })
        let short = try scores(words, .none, counts: "1")
        #expect(!short.isEmpty && short.allSatisfy { $0.0 == $0.1 })
    }
}
