/// Character trigrams of a folded term, packed into integers, for finding misspelt words:
/// "toolo" → "^to", "too", "ool", "olo", "lo$" (with boundary markers).
enum TermGrams {
    /// Terms shorter than this are not corrected (too many neighbours) and not indexed.
    static let minimumLength = 4
    static let maximumLength = 40

    /// Whether a vocabulary term takes part in typo correction: long enough and not a number.
    static func isIndexable(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.count >= minimumLength && scalars.count <= maximumLength && scalars.contains { !$0.properties.numericType.isNumber }
    }

    static func pack(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> Int64 {
        Int64(a) << 42 | Int64(b) << 21 | Int64(c)
    }

    /// All padded trigrams (count = length).
    static func grams(_ scalars: [Unicode.Scalar]) -> [Int64] {
        let values = [UInt32(0)] + scalars.map(\.value) + [UInt32(0)]
        guard values.count >= 3 else { return [] }
        var out: [Int64] = []
        out.reserveCapacity(values.count - 2)
        for i in 0..<(values.count - 2) { out.append(pack(values[i], values[i + 1], values[i + 2])) }
        return out
    }

    /// Trigrams usable to find terms that start with `prefix` (no end marker).
    static func prefixGrams(_ scalars: [Unicode.Scalar]) -> [Int64] {
        let values = [UInt32(0)] + scalars.map(\.value)
        guard values.count >= 3 else { return [] }
        var out: [Int64] = []
        for i in 0..<(values.count - 2) { out.append(pack(values[i], values[i + 1], values[i + 2])) }
        return out
    }
}

extension Optional where Wrapped == Unicode.NumericType {
    var isNumber: Bool { self != nil }
}
