import GeoCore

/// A compact byte form of a `PlaceRecord`, for the builder's staging table: records go to disk as
/// they are read and come back one at a time, so the build never holds every place in memory.
enum RecordCodec {
    static func encode(_ r: PlaceRecord) -> [UInt8] {
        var w = ByteWriter()
        w.byte(r.kind.rawValue)
        w.byte(r.osmType.rawValue)
        w.varint(UInt64(bitPattern: r.osmID))
        w.string(r.name)
        w.pairs(r.otherNames.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        w.pairs(r.streetNames.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        w.int32(r.position.latitudeE7)
        w.int32(r.position.longitudeE7)
        if let e = r.extent {
            w.byte(1)
            for v in [e.minLatitudeE7, e.minLongitudeE7, e.maxLatitudeE7, e.maxLongitudeE7] { w.int32(v) }
        } else {
            w.byte(0)
        }
        for s in [r.houseNumber, r.street, r.postcode, r.city, r.district, r.county, r.state, r.countryCode, r.phone, r.website,
                  r.openingHours, r.brand, r.cuisine] {
            w.optionalString(s)
        }
        w.strings(r.categories)
        w.string(r.osmKey)
        w.string(r.osmValue)
        w.strings(r.keywords)
        w.pairs(r.extraTags.map { ($0.key, $0.value) })
        w.double(r.importance)
        w.varint(UInt64(r.flags.rawValue))
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) -> PlaceRecord? {
        var r = ByteReader(bytes)
        guard let kind = PlaceKind(rawValue: r.byte()), let type = OSMObjectType(rawValue: r.byte()) else { return nil }
        let osmID = Int64(bitPattern: r.varint())
        let name = r.string()
        var p = PlaceRecord(kind: kind, osmType: type, osmID: osmID, name: name, osmKey: "", osmValue: "", importance: 0)
        p.otherNames = Dictionary(r.pairs(), uniquingKeysWith: { a, _ in a })
        p.streetNames = Dictionary(r.pairs(), uniquingKeysWith: { a, _ in a })
        p.position = Coordinate(latitudeE7: r.int32(), longitudeE7: r.int32())
        if r.byte() == 1 {
            p.extent = BoundingBox(minLatitudeE7: r.int32(), minLongitudeE7: r.int32(), maxLatitudeE7: r.int32(), maxLongitudeE7: r.int32())
        }
        p.houseNumber = r.optionalString()
        p.street = r.optionalString()
        p.postcode = r.optionalString()
        p.city = r.optionalString()
        p.district = r.optionalString()
        p.county = r.optionalString()
        p.state = r.optionalString()
        p.countryCode = r.optionalString()
        p.phone = r.optionalString()
        p.website = r.optionalString()
        p.openingHours = r.optionalString()
        p.brand = r.optionalString()
        p.cuisine = r.optionalString()
        p.categories = r.strings()
        p.osmKey = r.string()
        p.osmValue = r.string()
        p.keywords = r.strings()
        p.extraTags = r.pairs().map { (key: $0.0, value: $0.1) }
        p.importance = r.double()
        p.flags = PlaceRecord.Flags(rawValue: Int(r.varint()))
        return r.failed ? nil : p
    }
}

struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ b: UInt8) { bytes.append(b) }

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func int32(_ v: Int32) {
        let u = UInt32(bitPattern: v)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: u >> UInt32(shift))) }
    }

    mutating func double(_ v: Double) { varint(v.bitPattern) }

    mutating func string(_ s: String) {
        varint(UInt64(s.utf8.count))
        bytes.append(contentsOf: s.utf8)
    }

    mutating func optionalString(_ s: String?) {
        if let s {
            byte(1)
            string(s)
        } else {
            byte(0)
        }
    }

    mutating func strings(_ list: [String]) {
        varint(UInt64(list.count))
        for s in list { string(s) }
    }

    mutating func pairs(_ list: [(String, String)]) {
        varint(UInt64(list.count))
        for (k, v) in list {
            string(k)
            string(v)
        }
    }
}

/// Reads what `ByteWriter` wrote; past the end it returns zeros and sets `failed`.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0
    private(set) var failed = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { failed = true; return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func varint() -> UInt64 {
        var value: UInt64 = 0, shift: UInt64 = 0
        while shift < 64 {
            let b = byte()
            value |= UInt64(b & 0x7F) << shift
            if b < 0x80 || failed { break }
            shift += 7
        }
        return value
    }

    mutating func int32() -> Int32 {
        var u: UInt32 = 0
        for shift in stride(from: 0, to: 32, by: 8) { u |= UInt32(byte()) << UInt32(shift) }
        return Int32(bitPattern: u)
    }

    mutating func double() -> Double { Double(bitPattern: varint()) }

    mutating func string() -> String {
        let count = Int(varint())
        guard !failed, count >= 0, offset + count <= bytes.count else { failed = true; return "" }
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    mutating func optionalString() -> String? { byte() == 1 ? string() : nil }

    mutating func strings() -> [String] {
        let count = Int(varint())
        guard !failed, count <= bytes.count else { failed = true; return [] }
        return (0..<count).map { _ in string() }
    }

    mutating func pairs() -> [(String, String)] {
        let count = Int(varint())
        guard !failed, count <= bytes.count else { failed = true; return [] }
        return (0..<count).map { _ in (string(), string()) }
    }
}
