/// Per-language tables of the usual abbreviations in addresses ("str." for "Straße", "St" for
/// "Street" or "Saint", "Av." for "Avenida"), as Nominatim's and Photon's variant tables have them.
///
/// Words are written folded (lower case, no diacritics, `TextFolding` applied): the form the index
/// holds. A query word that is an abbreviation may stand for each of its full words, and a full word
/// for its abbreviations; in languages that write compounds ("Hauptstraße", "Centralgatan",
/// "Mannerheimintie") an abbreviated ending stands for the full one ("hauptstr" → "hauptstrasse").
/// Search keeps only the spellings the index actually has, so one table serves every extract.
struct Abbreviations: Sendable {
    struct Entry: Sendable {
        var full: String
        var short: [String]
        /// Also an ending of compound words.
        var suffix = false
    }

    static let tables: [String: [Entry]] = [
        "en": [
            Entry(full: "street", short: ["st", "str"]), Entry(full: "avenue", short: ["ave", "av"]), Entry(full: "road", short: ["rd"]),
            Entry(full: "boulevard", short: ["blvd"]), Entry(full: "drive", short: ["dr"]), Entry(full: "lane", short: ["ln"]),
            Entry(full: "place", short: ["pl"]), Entry(full: "square", short: ["sq"]), Entry(full: "court", short: ["ct"]),
            Entry(full: "terrace", short: ["ter", "tce"]), Entry(full: "crescent", short: ["cres"]), Entry(full: "highway", short: ["hwy"]),
            Entry(full: "parkway", short: ["pkwy"]), Entry(full: "circle", short: ["cir"]), Entry(full: "close", short: ["cl"]),
            Entry(full: "gardens", short: ["gdns"]), Entry(full: "saint", short: ["st"]), Entry(full: "mount", short: ["mt"]),
            Entry(full: "north", short: ["n"]), Entry(full: "south", short: ["s"]), Entry(full: "east", short: ["e"]),
            Entry(full: "west", short: ["w"]), Entry(full: "doctor", short: ["dr"]),
        ],
        "de": [
            Entry(full: "strasse", short: ["str"], suffix: true), Entry(full: "platz", short: ["pl"], suffix: true),
            Entry(full: "bahnhof", short: ["bhf"], suffix: true), Entry(full: "sankt", short: ["st"]),
            Entry(full: "doktor", short: ["dr"]), Entry(full: "professor", short: ["prof"]),
        ],
        "fr": [
            Entry(full: "rue", short: ["r"]), Entry(full: "avenue", short: ["av", "ave"]), Entry(full: "boulevard", short: ["bd", "bld", "boul"]),
            Entry(full: "place", short: ["pl"]), Entry(full: "saint", short: ["st"]), Entry(full: "sainte", short: ["ste"]),
            Entry(full: "chemin", short: ["ch", "chem"]), Entry(full: "route", short: ["rte"]), Entry(full: "allee", short: ["all"]),
            Entry(full: "impasse", short: ["imp"]), Entry(full: "square", short: ["sq"]), Entry(full: "faubourg", short: ["fbg"]),
            Entry(full: "docteur", short: ["dr"]), Entry(full: "general", short: ["gen", "gal"]),
        ],
        "it": [
            Entry(full: "via", short: ["v"]), Entry(full: "viale", short: ["vle"]), Entry(full: "piazza", short: ["p", "pza", "pzza"]),
            Entry(full: "piazzale", short: ["ple"]), Entry(full: "corso", short: ["c", "cso"]), Entry(full: "largo", short: ["lgo"]),
            Entry(full: "vicolo", short: ["vlo", "vic"]), Entry(full: "santo", short: ["s", "sto"]), Entry(full: "santa", short: ["s", "sta"]),
            Entry(full: "san", short: ["s"]), Entry(full: "strada", short: ["str"]), Entry(full: "salita", short: ["sal"]),
        ],
        "es": [
            Entry(full: "calle", short: ["c", "cl", "cll"]), Entry(full: "avenida", short: ["av", "avda"]),
            Entry(full: "plaza", short: ["pl", "pza", "plza"]), Entry(full: "paseo", short: ["po", "pso"]),
            Entry(full: "carretera", short: ["ctra"]), Entry(full: "camino", short: ["cno", "cam"]), Entry(full: "san", short: ["s"]),
            Entry(full: "santa", short: ["sta"]), Entry(full: "santo", short: ["sto"]), Entry(full: "doctor", short: ["dr"]),
            Entry(full: "general", short: ["gral"]),
        ],
        "ca": [
            Entry(full: "carrer", short: ["c", "cr"]), Entry(full: "avinguda", short: ["av", "avda"]), Entry(full: "placa", short: ["pl", "pca"]),
            Entry(full: "passeig", short: ["pg"]), Entry(full: "carretera", short: ["ctra"]), Entry(full: "cami", short: ["cm"]),
            Entry(full: "sant", short: ["st"]), Entry(full: "santa", short: ["sta"]),
        ],
        "pt": [
            Entry(full: "rua", short: ["r"]), Entry(full: "avenida", short: ["av", "avda"]), Entry(full: "praca", short: ["pc", "pca", "pr"]),
            Entry(full: "travessa", short: ["tv", "trav"]), Entry(full: "largo", short: ["lg", "lgo"]), Entry(full: "estrada", short: ["estr", "est"]),
            Entry(full: "alameda", short: ["al"]), Entry(full: "doutor", short: ["dr"]), Entry(full: "santa", short: ["sta"]),
            Entry(full: "santo", short: ["sto"]), Entry(full: "sao", short: ["s"]), Entry(full: "calcada", short: ["calc", "cc"]),
            Entry(full: "rotunda", short: ["rot"]),
        ],
        "nl": [
            Entry(full: "straat", short: ["str"], suffix: true), Entry(full: "laan", short: ["ln"], suffix: true),
            Entry(full: "plein", short: ["pln", "pl"], suffix: true), Entry(full: "sint", short: ["st"]),
        ],
        "da": [
            Entry(full: "gade", short: ["g"], suffix: true), Entry(full: "vej", short: ["v"], suffix: true),
            Entry(full: "plads", short: ["pl"], suffix: true), Entry(full: "sankt", short: ["skt", "st"]),
        ],
        "nb": [
            Entry(full: "gate", short: ["gt"], suffix: true), Entry(full: "veien", short: ["vn"], suffix: true),
            Entry(full: "vei", short: ["v"], suffix: true), Entry(full: "sankt", short: ["st"]),
        ],
        "sv": [
            Entry(full: "gatan", short: ["g"], suffix: true), Entry(full: "vagen", short: ["v"], suffix: true),
            Entry(full: "sankt", short: ["st"]),
        ],
        "fi": [
            Entry(full: "katu", short: ["k"], suffix: true), Entry(full: "tie", short: ["t"], suffix: true),
            Entry(full: "kuja", short: ["kj"], suffix: true),
        ],
    ]

    /// Abbreviations written with a point or colon inside ("P.za", "V.le", "S:t"), which the tokenizer
    /// splits in two: the pair of words and the full word it stands for.
    static let splitForms: [String: [String: String]] = [
        "p": ["za": "piazza", "zza": "piazza", "le": "piazzale"], "v": ["le": "viale", "lo": "vicolo"],
        "c": ["so": "corso"], "l": ["go": "largo"], "s": ["t": "sankt"],
    ]

    static let standard = Abbreviations(tables: tables)

    /// Word → the words it may stand for.
    private let whole: [String: [String]]
    /// Abbreviated ending → full endings, longest first.
    private let endings: [(short: String, full: [String])]

    init(tables: [String: [Entry]]) {
        var whole: [String: [String]] = [:]
        var endings: [String: [String]] = [:]
        func add(_ key: String, _ value: String, to map: inout [String: [String]]) {
            if !(map[key]?.contains(value) ?? false) { map[key, default: []].append(value) }
        }
        for language in tables.keys.sorted() {
            for entry in tables[language]! {
                for short in entry.short {
                    add(short, entry.full, to: &whole)
                    add(entry.full, short, to: &whole)
                    if entry.suffix { add(short, entry.full, to: &endings) }
                }
            }
        }
        self.whole = whole
        self.endings = endings.map { ($0.key, $0.value) }.sorted { ($0.short.count, $0.short) > ($1.short.count, $1.short) }
    }

    /// The spellings `word` may stand for, without itself: its expansions or abbreviations, and a
    /// compound with its abbreviated ending written out ("hauptstr" → "hauptstrasse").
    func variants(of word: String) -> [String] {
        var out = whole[word] ?? []
        for (short, fulls) in endings where word.count > short.count + 2 && word.hasSuffix(short) {
            let stem = word.dropLast(short.count)
            for full in fulls where !out.contains(String(stem) + full) { out.append(String(stem) + full) }
        }
        return out
    }

    /// Joins the two halves of abbreviations like "p.za" that the tokenizer split into "p", "za".
    static func joinSplitForms(_ words: [String]) -> [String] {
        var out: [String] = []
        var i = 0
        while i < words.count {
            if i + 1 < words.count, let full = splitForms[words[i]]?[words[i + 1]] {
                out.append(full)
                i += 2
            } else {
                out.append(words[i])
                i += 1
            }
        }
        return out
    }
}
