import GeoCore

/// Tag conditions that must all hold, e.g. `amenity=bank` and `atm=yes`. A nil value means "any value".
public struct OSMTagRule: Sendable, Hashable {
    public var conditions: [Condition]

    public struct Condition: Sendable, Hashable {
        public var key: String
        public var value: String?
        public init(key: String, value: String?) {
            self.key = key
            self.value = value
        }
    }

    public init(_ conditions: [Condition]) {
        precondition(!conditions.isEmpty, "a rule needs at least one condition")
        self.conditions = conditions
    }

    /// Parses "amenity=bank+atm=yes" (`key=*` or a bare `key` for any value).
    public init(_ text: String) {
        self.init(text.split(separator: "+").map { part in
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            return Condition(key: kv[0], value: kv.count == 2 && kv[1] != "*" ? kv[1] : nil)
        })
    }

    /// True when every condition holds on `lookup` (a tag getter).
    func matches(_ lookup: (String) -> String?) -> Bool {
        for c in conditions {
            guard let v = lookup(c.key) else { return false }
            if let expected = c.value {
                // OSM allows "a;b" lists: any element may match.
                if v != expected && !v.split(separator: ";").contains(where: { $0.trimmedSpaces == expected }) {
                    return false
                }
            }
        }
        return true
    }

    public var description: String {
        conditions.map { "\($0.key)=\($0.value ?? "*")" }.joined(separator: "+")
    }
}

