import SQLite

/// A replacement for a query word the index does not know.
struct WordCorrection: Equatable {
    var term: String
    var edits: Int
    var documents: Int
}

extension PlaceSession {
    /// Documents containing `term` exactly (0 when the index never saw it); with `inNames`, those with it in a
    /// name or keyword.
    func documentCount(_ term: String, inNames: Bool = false) throws -> Int {
        let s = try database.cachedStatement(inNames ? "SELECT name_docs FROM vocab WHERE term = ?1" : "SELECT docs FROM vocab WHERE term = ?1")
        try s.bind(term, at: 1)
        defer { s.reset() }
        return try s.step() ? s.int(0) : 0
    }

    /// About how many documents contain a word starting with `prefix` (stops counting after 200 distinct words).
    func documentCount(startingWith prefix: String) throws -> Int {
        let s = try database.cachedStatement("SELECT SUM(docs), COUNT(*) FROM (SELECT docs FROM vocab WHERE term >= ?1 AND term < ?2 LIMIT 200)")
        try s.bind(prefix, at: 1)
        try s.bind(prefix + "\u{10FFFF}", at: 2)
        defer { s.reset() }
        guard try s.step() else { return 0 }
        return s.int(1) >= 200 ? Int.max : s.int(0)
    }

    /// Whether any indexed word starts with `prefix`.
    func hasWord(startingWith prefix: String) throws -> Bool {
        let s = try database.cachedStatement("SELECT 1 FROM vocab WHERE term >= ?1 AND term < ?2 LIMIT 1")
        try s.bind(prefix, at: 1)
        try s.bind(prefix + "\u{10FFFF}", at: 2)
        defer { s.reset() }
        return try s.step()
    }

    /// Indexed words within `maxEdits` of `word` (or, with `prefix`, words that start within `maxEdits` of it),
    /// fewest edits first, then the most common. For a prefix the corrected prefix is returned ("manerh" → "mannerh").
    func corrections(of word: String, prefix: Bool, maxEdits: Int, limit: Int = 6) throws -> [WordCorrection] {
        let scalars = Array(word.unicodeScalars)
        guard maxEdits > 0, TermGrams.isIndexable(scalars) || (prefix && scalars.count >= 3) else { return [] }
        let grams = prefix ? TermGrams.prefixGrams(scalars) : TermGrams.grams(scalars)
        guard !grams.isEmpty else { return [] }
        // One edit changes at most 3 trigrams (4 for a transposition).
        let minimumHits = max(1, grams.count - 4 * maxEdits)
        let s = try database.cachedStatement("""
            SELECT v.term, v.docs FROM (
                SELECT term_id, COUNT(*) AS hits FROM vocab_gram
                WHERE gram IN (SELECT value FROM json_each(?1)) AND length BETWEEN ?2 AND ?3
                GROUP BY term_id HAVING hits >= ?4 ORDER BY hits DESC LIMIT 500) g
            JOIN vocab v ON v.id = g.term_id
            """)
        try s.bind("[" + grams.map(String.init).joined(separator: ",") + "]", at: 1)
        try s.bind(max(TermGrams.minimumLength, scalars.count - maxEdits), at: 2)
        try s.bind(prefix ? TermGrams.maximumLength : scalars.count + maxEdits, at: 3)
        try s.bind(minimumHits, at: 4)
        defer { s.reset() }
        var found: [WordCorrection] = []
        while try s.step() {
            let term = s.text(0)
            let termScalars = Array(term.unicodeScalars)
            if prefix {
                guard let (edits, length) = Self.bestPrefix(scalars, termScalars, maxEdits: maxEdits), edits > 0 else { continue }
                let corrected = String(String.UnicodeScalarView(termScalars[0..<length]))
                if let i = found.firstIndex(where: { $0.term == corrected }) {
                    found[i].documents += s.int(1)
                } else {
                    found.append(WordCorrection(term: corrected, edits: edits, documents: s.int(1)))
                }
            } else if let edits = EditDistance.distance(scalars, termScalars, limit: maxEdits), edits > 0 {
                found.append(WordCorrection(term: term, edits: edits, documents: s.int(1)))
            }
        }
        // A swap of two letters in the middle of a four-letter word leaves no trigram in common with the
        // right spelling ("kopi" / "koip"), so the pre-filter above cannot see it: try the swaps directly.
        if scalars.count <= Self.transpositionCheckLength {
            for fix in try transpositions(of: scalars, prefix: prefix) where !found.contains(where: { $0.term == fix.term }) {
                found.append(fix)
            }
        }
        found.sort { ($0.edits, -$0.documents, $0.term) < ($1.edits, -$1.documents, $1.term) }
        // Keep only the best edit count (one-typo fixes beat two-typo ones).
        if let best = found.first?.edits { found.removeAll { $0.edits > best } }
        return Array(found.prefix(limit))
    }

    /// Words up to this long are also checked for swapped neighbours one by one (longer words always
    /// keep enough trigrams for the pre-filter).
    static let transpositionCheckLength = 5

    /// Indexed words (or, with `prefix`, starts of words) that `word` becomes when two neighbouring
    /// letters are swapped back.
    func transpositions(of scalars: [Unicode.Scalar], prefix: Bool) throws -> [WordCorrection] {
        guard scalars.count >= 2 else { return [] }
        var out: [WordCorrection] = []
        for i in 0..<(scalars.count - 1) where scalars[i] != scalars[i + 1] {
            var swapped = scalars
            swapped.swapAt(i, i + 1)
            let term = String(String.UnicodeScalarView(swapped))
            let documents = prefix ? try documentCount(startingWith: term) : try documentCount(term)
            if documents > 0 { out.append(WordCorrection(term: term, edits: 1, documents: documents)) }
        }
        return out
    }

    /// The prefix of `term` closest to `query`: (edits, prefix length).
    static func bestPrefix(_ query: [Unicode.Scalar], _ term: [Unicode.Scalar], maxEdits: Int) -> (Int, Int)? {
        var best: (Int, Int)?
        let lo = max(1, query.count - maxEdits), hi = min(term.count, query.count + maxEdits)
        guard lo <= hi else { return nil }
        for length in lo...hi {
            if let d = EditDistance.distance(query, Array(term[0..<length]), limit: maxEdits), d < (best?.0 ?? .max) {
                best = (d, length)
            }
        }
        return best
    }
}
