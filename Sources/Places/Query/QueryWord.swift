/// One word of a text query, folded as the index folds it, with the spellings it may match.
struct QueryWord: Equatable {
    /// As typed (folded).
    var text: String
    /// The last word while typing: matches words that start with it.
    var isPrefix: Bool
    /// Spellings to accept: the word itself (0 edits) and corrections.
    var forms: [(term: String, edits: Int)]
    /// Left out of the match: unknown to the index and without a correction.
    var isDropped = false
    /// A word of a structured search's city, postcode, county or state: it must be in a place's address
    /// (the context column), and does not count towards how well the name matches.
    var inContextOnly = false
    /// A one-character number typed last ("Nørrebrogade 1"): matched against house numbers beside the text
    /// match, since the index keeps no one-character prefixes and expanding one reads every number that
    /// starts with it.
    var matchesHouseNumberOnly = false

    init(text: String, isPrefix: Bool) {
        self.text = text
        self.isPrefix = isPrefix
        forms = [(text, 0)]
    }

    static func == (a: QueryWord, b: QueryWord) -> Bool {
        a.text == b.text && a.isPrefix == b.isPrefix && a.isDropped == b.isDropped
            && a.forms.map(\.term) == b.forms.map(\.term) && a.forms.map(\.edits) == b.forms.map(\.edits)
    }

    var isNumeric: Bool { text.first?.isNumber ?? false }

    /// A spelling with edits was added (not just another spelling of the same word).
    var isCorrected: Bool { forms.contains { $0.edits > 0 } }

    /// An FTS5 expression: `"word"`, `"word"*`, or `("word" OR "wrod")`; with `namesOnly`, limited to the
    /// name and keyword columns (`{name keywords} : …`).
    func ftsExpression(namesOnly: Bool = false) -> String {
        let parts = forms.map { form in "\"\(form.term.replacing("\"", with: "\"\""))\"" + (isPrefix ? "*" : "") }
        let expression = parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " OR ") + ")"
        if inContextOnly { return "{context} : " + expression }
        return namesOnly ? "{name keywords} : " + expression : expression
    }

    /// Which words must be in a name or keyword (rather than anywhere, the address around it included).
    enum NameColumns {
        case none
        /// A prefix word must start a word of a name or keyword ("hel" should not match every place whose city is Helsinki).
        case prefixes
        case all
    }

    /// The FTS5 MATCH text for all words that are not dropped (AND of each).
    static func ftsQuery(_ words: [QueryWord], inNames: NameColumns = .none) -> String {
        words.filter(\.isMatched).map { $0.ftsExpression(namesOnly: $0.isNamesOnly(inNames)) }.joined(separator: " AND ")
    }

    /// The phrases of `ftsQuery(words, inNames:)`, in its order: the term where the phrase is that whole word in
    /// any column or in the name and keyword columns (so the rows it matches are one of the vocabulary's counts
    /// of the word), nil where it is a prefix or limited to the context column.
    static func wholeWordPhrases(_ words: [QueryWord], inNames: NameColumns = .none) -> [(term: String, inNames: Bool)?] {
        words.filter(\.isMatched).flatMap { word in
            word.forms.map { word.isPrefix || word.inContextOnly ? nil : ($0.term, word.isNamesOnly(inNames)) }
        }
    }

    /// Takes part in the FTS match.
    var isMatched: Bool { !isDropped && !matchesHouseNumberOnly }

    private func isNamesOnly(_ inNames: NameColumns) -> Bool { inNames == .all || (inNames == .prefixes && isPrefix) }

    /// How well `token` (a folded word of a name) matches: 1 exact, less for a prefix or a corrected spelling.
    func match(_ token: String) -> Double {
        var best = 0.0
        for form in forms {
            // Another spelling of the word (an abbreviation or its expansion) is almost as good as the word.
            let penalty = form.edits == 0 ? (form.term == text ? 1.0 : 0.97) : (form.edits == 1 ? 0.8 : 0.65)
            if token == form.term {
                best = max(best, penalty)
            } else if isPrefix && token.hasPrefix(form.term) {
                // A longer typed prefix is a stronger match.
                let ratio = Double(form.term.count) / Double(max(1, token.count))
                best = max(best, penalty * (0.75 + 0.2 * ratio))
            }
        }
        return best
    }
}
