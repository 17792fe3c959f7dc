import Foundation
public import OSMPBF
import GeoCore

/// The list of POI categories, how OSM tags map onto them, and how filters name them
/// (a string id, a TomTom numeric id, or an English name or synonym).
public struct CategoryTaxonomy: Sendable {
    /// Every category, in listing order.
    public let categories: [PlaceCategory]
    private let indexByID: [String: Int]
    /// Rules keyed by "key=value" of their first condition, or by "key" when it accepts any value.
    private let rulesByTag: [String: [(rule: OSMTagRule, category: Int)]]
    /// The tag keys any rule starts with ("amenity", "shop", …).
    public let keys: Set<String>
    private let indexByPhrase: [String: [Int]]

    public init(_ categories: [PlaceCategory]) {
        self.categories = categories
        var indexByID: [String: Int] = [:]
        var rulesByTag: [String: [(rule: OSMTagRule, category: Int)]] = [:]
        var keys: Set<String> = []
        var indexByPhrase: [String: [Int]] = [:]
        for (i, category) in categories.enumerated() {
            precondition(indexByID[category.id] == nil, "duplicate category id \(category.id)")
            indexByID[category.id] = i
            for rule in category.osmRules {
                let first = rule.conditions[0]
                keys.insert(first.key)
                rulesByTag[first.value.map { "\(first.key)=\($0)" } ?? first.key, default: []].append((rule, i))
            }
            let phrases = [category.id.replacingOccurrences(of: "_", with: " "), category.name] + category.synonyms
            for phrase in phrases {
                let folded = Self.fold(phrase)
                guard !folded.isEmpty else { continue }
                if !(indexByPhrase[folded]?.contains(i) ?? false) { indexByPhrase[folded, default: []].append(i) }
            }
        }
        self.indexByID = indexByID
        self.rulesByTag = rulesByTag
        self.keys = keys
        self.indexByPhrase = indexByPhrase
    }

    public func category(id: String) -> PlaceCategory? {
        indexByID[id].map { categories[$0] }
    }

    /// The categories an OSM object belongs to, primary first (`amenity=bank` + `atm=yes` → bank, atm).
    public func categories(for tags: Tags) -> [String] {
        var matched: [(conditions: Int, order: Int, category: Int)] = []
        var order = 0
        for (key, value) in tags where keys.contains(key) {
            for lookup in [key, "\(key)=\(value)"] + value.split(separator: ";").map({ "\(key)=\($0.trimmedSpaces)" }) {
                for (rule, category) in rulesByTag[lookup] ?? [] where rule.matches({ tags[$0] }) {
                    if !matched.contains(where: { $0.category == category }) {
                        matched.append((rule.conditions.count, order, category))
                    }
                }
            }
            order += 1
        }
        if matched.contains(where: { !categories[$0.category].isFallback }) {
            matched.removeAll { categories[$0.category].isFallback }
        }
        matched.sort { ($0.conditions, $0.order, $0.category) < ($1.conditions, $1.order, $1.category) }
        return matched.map { categories[$0.category].id }
    }

    /// The categories a filter names: a string id ("fuel"), a TomTom id ("7311", which also selects
    /// child ids such as 7315015 under 7315), or an English name or synonym ("petrol station").
    public func resolve(_ filter: String) -> [PlaceCategory] {
        let text = String(filter.trimmedSpaces)
        if let id = indexByID[text] ?? indexByID[text.lowercased()] { return [categories[id]] }
        if let number = Int(text) {
            return categories.filter { category in
                category.allTomTomIDs.contains { $0 == number || Self.isChild($0, of: number) }
            }
        }
        return phrase(text).map { categories[$0] }
    }

    /// The union of `resolve` over several filters, without duplicates, in listing order.
    public func resolve(_ filters: [String]) -> [PlaceCategory] {
        var ids = Set<String>()
        for filter in filters { for c in resolve(filter) { ids.insert(c.id) } }
        return categories.filter { ids.contains($0.id) }
    }

    /// Categories whose name or synonym is exactly `text` (case and diacritics ignored).
    public func phrase(_ text: String) -> [Int] {
        indexByPhrase[Self.fold(text)] ?? []
    }

    /// Categories whose name or synonym starts with `prefix` (for typeahead), at least 3 characters.
    public func phrases(startingWith prefix: String) -> [Int] {
        let folded = Self.fold(prefix)
        guard folded.count >= 3 else { return [] }
        var found: [Int] = []
        for (phrase, indices) in indexByPhrase where phrase.hasPrefix(folded) {
            for i in indices where !found.contains(i) { found.append(i) }
        }
        return found.sorted()
    }

    /// True when `id` is a TomTom child of `parent` (7315015 under 7315; 9361009 under 9361).
    static func isChild(_ id: Int, of parent: Int) -> Bool {
        var id = id
        while id > parent && id >= 1000 {
            id /= 1000
            if id == parent { return true }
        }
        return false
    }

    /// TomTom ids of the categories that are children of `id`.
    public func childTomTomIDs(of id: Int) -> [Int] {
        var children: [Int] = []
        for c in categories { for t in c.allTomTomIDs where Self.isChild(t, of: id) && !children.contains(t) { children.append(t) } }
        return children.sorted()
    }

    /// Lower case, no diacritics, words separated by single spaces.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        var out = ""
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "&" {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.unicodeScalars.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return out
    }
}
