/// The tags of one OSM object as an ordered list of key/value pairs.
///
/// OSM objects carry a handful of tags, so a linear scan beats hashing here.
public struct Tags: Sendable, Sequence, ExpressibleByDictionaryLiteral, Equatable {
    public var pairs: [(key: String, value: String)]

    public init(_ pairs: [(key: String, value: String)] = []) { self.pairs = pairs }

    public init(_ dictionary: [String: String]) {
        pairs = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        pairs = elements.map { (key: $0.0, value: $0.1) }
    }

    @inlinable
    public subscript(key: String) -> String? {
        for pair in pairs where pair.key == key { return pair.value }
        return nil
    }

    public var isEmpty: Bool { pairs.isEmpty }
    public var count: Int { pairs.count }

    public func makeIterator() -> IndexingIterator<[(key: String, value: String)]> { pairs.makeIterator() }

    public static func == (lhs: Tags, rhs: Tags) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
