/// The decoded query string as ordered name/value pairs; repeated names are all kept
/// (`avoid=tollRoads&avoid=ferries` is two entries).
public struct QueryParameters: Sendable, Equatable, RandomAccessCollection, ExpressibleByArrayLiteral {
    public struct Item: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public private(set) var items: [Item]

    public init(_ items: [Item] = []) { self.items = items }
    public init(arrayLiteral elements: (String, String)...) {
        items = elements.map { Item(name: $0.0, value: $0.1) }
    }

    public var startIndex: Int { items.startIndex }
    public var endIndex: Int { items.endIndex }
    public subscript(position: Int) -> Item { items[position] }

    /// The first value for `name` (case-sensitive), or nil. A bare `flag` (no `=`) has value "".
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    /// All values for `name`, in order.
    public func values(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public func contains(_ name: String) -> Bool { items.contains { $0.name == name } }

    /// Parses `a=1&b=2&a=3` (raw, still percent-encoded bytes; `+` is a space).
    /// Empty pieces (`a=1&&b=2`) are skipped.
    static func parse<C: Collection>(_ raw: C) -> Result<QueryParameters, PercentDecoding.Failure>
    where C.Element == UInt8, C.SubSequence: Collection<UInt8> {
        var items: [Item] = []
        for piece in raw.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name: String, value: String
            if let eq = piece.firstIndex(of: UInt8(ascii: "=")) {
                switch PercentDecoding.decode(piece[piece.startIndex..<eq], plusAsSpace: true) {
                case .success(let s): name = s
                case .failure(let f): return .failure(f)
                }
                switch PercentDecoding.decode(piece[piece.index(after: eq)...], plusAsSpace: true) {
                case .success(let s): value = s
                case .failure(let f): return .failure(f)
                }
            } else {
                switch PercentDecoding.decode(piece, plusAsSpace: true) {
                case .success(let s): name = s
                case .failure(let f): return .failure(f)
                }
                value = ""
            }
            items.append(Item(name: name, value: value))
        }
        return .success(QueryParameters(items))
    }
}
