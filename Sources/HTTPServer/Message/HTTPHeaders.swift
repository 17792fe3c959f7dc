/// An ordered list of header fields with case-insensitive lookup.
///
/// Repeated fields are kept in arrival order. `HTTPRequest` lower-cases every name on the way
/// in; responses keep the spelling the application chose.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public private(set) var fields: [Field]

    public init() { fields = [] }
    public init(_ pairs: [(String, String)]) { fields = pairs.map { Field(name: $0.0, value: $0.1) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        fields.first { Self.equalNames($0.name, name) }?.value
    }

    /// Every value of `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { Self.equalNames($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { fields.contains { Self.equalNames($0.name, name) } }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Replaces every field named `name` with one field (appended at the end).
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) { fields.removeAll { Self.equalNames($0.name, name) } }

    /// Whether a comma-separated header (like `Vary` or `Connection`) lists `token`, case-insensitively.
    public func listContains(_ name: String, token: String) -> Bool {
        values(name).contains { value in
            value.split(separator: ",").contains { Self.equalNames(String($0.trimmingASCIIWhitespace()), token) }
        }
    }

    /// The same fields with lower-cased names.
    func lowercasingNames() -> HTTPHeaders {
        var copy = self
        for i in copy.fields.indices { copy.fields[i].name = Self.asciiLowercased(copy.fields[i].name) }
        return copy
    }

    static func equalNames(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    static func asciiLowercased(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 >= 65 && $0 <= 90 }) else { return s }
        return String(decoding: s.utf8.map(asciiLower), as: UTF8.self)
    }

    @inline(__always) static func asciiLower(_ b: UInt8) -> UInt8 { (b >= 65 && b <= 90) ? b + 32 : b }
}

extension Substring {
    func trimmingASCIIWhitespace() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}
