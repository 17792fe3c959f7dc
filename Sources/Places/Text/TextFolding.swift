/// Letters the FTS5 tokenizer keeps as they are (they have no Unicode decomposition) written the way
/// a keyboard without them spells them, as Nominatim's and Photon's Latin-ASCII transliteration does:
/// "Nørrebrogade" is found by "Norrebrogade", "Straße" by "Strasse", "Łódź" by "Lodz". Diacritics
/// that do decompose ("Södermalm", "Luċija") are removed by the tokenizer itself.
///
/// Applied to every text that goes into the full-text index and to every query before it is
/// tokenized, so both sides fold alike.
enum TextFolding {
    static let replacements: [Character: String] = [
        "ø": "o", "Ø": "o", "æ": "ae", "Æ": "ae", "ß": "ss", "ẞ": "ss", "ł": "l", "Ł": "l", "đ": "d", "Đ": "d",
        "ð": "d", "Ð": "d", "þ": "th", "Þ": "th", "œ": "oe", "Œ": "oe", "ı": "i", "ħ": "h", "Ħ": "h", "ŧ": "t",
        "Ŧ": "t", "ŋ": "n", "Ŋ": "n", "ĸ": "k", "ſ": "s", "ŀ": "l", "Ŀ": "l", "ƒ": "f", "ɨ": "i", "ʉ": "u",
        // Apostrophes and typographic marks that separate nothing: "Sant'Ambrogio" as "Sant Ambrogio".
        "’": "'", "‘": "'", "`": "'", "´": "'", "‐": "-", "–": "-", "—": "-",
    ]

    /// `text` with the letters above replaced; unchanged (and not copied) when it has none.
    static func fold(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value >= 0x7F }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var changed = false
        for ch in text {
            if let r = replacements[ch] {
                out += r
                changed = true
            } else {
                out.append(ch)
            }
        }
        return changed ? out : text
    }
}
