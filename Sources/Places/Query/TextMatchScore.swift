/// How well a place's name answers the query words, 0 (no word in the name) to about 1.4 (exact name).
enum TextMatchScore {
    /// - Parameters:
    ///   - words: the query words still in play.
    ///   - nameTokens: the folded words of one name of the place ("mannerheimintie", "5").
    /// - Returns: the score and whether every query word was found in the name.
    static func score(_ words: [QueryWord], nameTokens: [String]) -> (score: Double, allWordsInName: Bool) {
        let active = words.filter { !$0.isDropped }
        guard !active.isEmpty, !nameTokens.isEmpty else { return (0, false) }
        var used = [Bool](repeating: false, count: nameTokens.count)
        var wordSum = 0.0
        var allExact = true
        var allFound = true
        for word in active {
            var best = (value: 0.0, index: -1)
            for (i, token) in nameTokens.enumerated() where !used[i] {
                let m = word.match(token)
                if m > best.value { best = (m, i) }
            }
            if best.index >= 0 {
                used[best.index] = true
                wordSum += best.value
                if best.value < 1 { allExact = false }
            } else {
                allFound = false
                allExact = false
            }
        }
        let wordCoverage = wordSum / Double(active.count)
        let nameCoverage = Double(used.filter { $0 }.count) / Double(nameTokens.count)
        var score = 0.6 * wordCoverage + 0.4 * nameCoverage
        if allFound && nameCoverage == 1 { score += allExact ? 0.3 : 0.15 }
        // The name starts with the first word: "Kamppi" before "Ravintola Kamppi".
        if let first = active.first, first.match(nameTokens[0]) > 0 { score += 0.1 }
        return (score, allFound)
    }
}
