/// Nominatim's `address` object: labels (`road`, `house_number`, `suburb`, `city`, `postcode`,
/// `country_code`, …) in order from the most specific to the most general.
public struct NominatimAddress: Codable, Sendable, Equatable {
    public var parts: [(label: String, value: String)]

    public init(_ parts: [(label: String, value: String)]) { self.parts = parts }

    public subscript(label: String) -> String? { parts.first { $0.label == label }?.value }

    public static func == (lhs: NominatimAddress, rhs: NominatimAddress) -> Bool {
        lhs.parts.count == rhs.parts.count && zip(lhs.parts, rhs.parts).allSatisfy { $0.label == $1.label && $0.value == $1.value }
    }

    struct Label: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Label.self)
        parts = try c.allKeys.map { (label: $0.stringValue, value: try c.decode(String.self, forKey: $0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Label.self)
        for part in parts { try c.encode(part.value, forKey: Label(stringValue: part.label)) }
    }
}
