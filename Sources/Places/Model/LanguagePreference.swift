import GeoCore

/// The languages a caller wants names in, best first: from TomTom's `language`, Nominatim's
/// `accept-language` (or the HTTP `Accept-Language` header) or the SDK's locale. Parsed as an HTTP
/// Accept-Language list ("sv-FI,sv;q=0.9,en;q=0.5"), ordered by weight; a regional variant also
/// brings its base language ("sv-FI" → "sv-FI", "sv"), as Nominatim does.
public struct LanguagePreference: Sendable, Equatable {
    public let languages: [String]

    public init(_ text: String?) {
        var weighted: [(language: String, weight: Double, order: Int)] = []
        for (i, part) in (text ?? "").split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first.map({ String($0.trimmedSpaces) }), !tag.isEmpty, tag != "*",
                  tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else { continue }
            var weight = 1.0
            for p in pieces.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0].trimmedSpaces == "q", let q = Double(kv[1].trimmedSpaces) { weight = q }
            }
            weighted.append((tag.replacing("_", with: "-"), weight, i))
        }
        weighted.sort { ($0.weight, -$0.order) > ($1.weight, -$1.order) }
        var out: [String] = []
        for w in weighted {
            if !out.contains(w.language) { out.append(w.language) }
            let base = String(w.language.split(separator: "-")[0])
            if base != w.language && !weighted.contains(where: { $0.language == base }) && !out.contains(base) { out.append(base) }
        }
        languages = out
    }

    public var isEmpty: Bool { languages.isEmpty }

    /// The first language, for APIs that take one.
    public var primary: String? { languages.first }

    /// The name among OSM name tags (`name:xx`, …) in the wanted languages: `name:xx` for each language in
    /// turn, else `main` (the object's `name`); `official_name:xx` and `short_name:xx` only when there is no `name`.
    func choose(from names: [String: String], main: String) -> String? {
        for language in languages {
            if let v = names["name:\(language)"] ?? names["name:\(language.lowercased())"] { return v }
        }
        if !main.isEmpty { return main }
        for key in ["brand"] + languages.flatMap({ ["official_name:\($0)", "short_name:\($0)"] }) + ["official_name", "short_name", "ref"] {
            if let v = names[key] { return v }
        }
        return nil
    }
}
