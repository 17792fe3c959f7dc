/// Parses OSRM's segment speed file format and Wayfinder's closure and profile files, fast (a
/// byte scanner, no strings per line: 550,000 lines in a few tens of milliseconds) and strictly
/// (every malformed line is reported with its number).
///
/// - speeds:   `from_osm_node_id,to_osm_node_id,speed_kmh[,rate]`
/// - closures: `from_osm_node_id,to_osm_node_id`
/// - profiles: `from_osm_node_id,to_osm_node_id,v1,…,vN` with N = 24, 96, 168 or 672 speeds (km/h)
/// Blank lines and lines starting with `#` are skipped; one header line of words is allowed.
public enum SegmentSpeedCSV {
    public struct Entry: Sendable, Equatable {
        public var from: Int64
        public var to: Int64
        public var speedKmh: Double?

        public init(from: Int64, to: Int64, speedKmh: Double?) {
            self.from = from
            self.to = to
            self.speedKmh = speedKmh
        }
    }

    public static let maxSpeedKmh = 300.0

    public static func parseSpeeds(_ bytes: [UInt8], source: String) throws(TrafficError) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(bytes.count / 24)
        try scan(bytes, source: source) { (fields, line) throws(TrafficError) in
            guard fields.count == 3 || fields.count == 4 else {
                throw TrafficError(source: source, line: line, "expected from_osm_node_id,to_osm_node_id,speed_kmh[,rate], found \(fields.count) fields")
            }
            let (from, to) = try nodePair(fields, line: line, source: source)
            guard let speed = fields[2].number, speed >= 0, speed <= maxSpeedKmh else {
                throw TrafficError(source: source, line: line, "speed \"\(fields[2].text)\" is not a number of km/h in 0...\(Int(maxSpeedKmh))")
            }
            if fields.count == 4, fields[3].number == nil {
                throw TrafficError(source: source, line: line, "rate \"\(fields[3].text)\" is not a number")
            }
            entries.append(Entry(from: from, to: to, speedKmh: speed))
        }
        return entries
    }

    public static func parseClosures(_ bytes: [UInt8], source: String) throws(TrafficError) -> [Entry] {
        var entries: [Entry] = []
        try scan(bytes, source: source) { (fields, line) throws(TrafficError) in
            guard fields.count == 2 else {
                throw TrafficError(source: source, line: line, "expected from_osm_node_id,to_osm_node_id, found \(fields.count) fields")
            }
            let (from, to) = try nodePair(fields, line: line, source: source)
            entries.append(Entry(from: from, to: to, speedKmh: nil))
        }
        return entries
    }

    static func nodePair(_ fields: [Field], line: Int, source: String) throws(TrafficError) -> (Int64, Int64) {
        guard let from = fields[0].integer, let to = fields[1].integer, from > 0, to > 0 else {
            throw TrafficError(source: source, line: line, "\"\(fields[0].text),\(fields[1].text)\" is not a pair of positive OSM node ids")
        }
        return (from, to)
    }

    /// One comma-separated field: its bytes (spaces trimmed), read as an integer or a number on demand.
    struct Field {
        let bytes: UnsafeBufferPointer<UInt8>

        /// `digits.digits` without a sign or exponent (how speeds are written), read without
        /// making a String; nil for anything else.
        var plainDecimal: Double? {
            var whole: Int64 = 0, fraction: Int64 = 0, scale: Double = 1
            var seenDot = false, digits = 0
            for b in bytes {
                if b == 46 { if seenDot { return nil }; seenDot = true; continue }
                guard b >= 48 && b <= 57, digits < 15 else { return nil }
                digits += 1
                if seenDot { fraction = fraction * 10 + Int64(b - 48); scale *= 10 } else { whole = whole * 10 + Int64(b - 48) }
            }
            guard digits > 0 else { return nil }
            return Double(whole) + Double(fraction) / scale
        }

        var text: String { String(decoding: bytes.prefix(40), as: UTF8.self) }

        var integer: Int64? {
            guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
            var v: Int64 = 0
            for b in bytes {
                guard b >= 48 && b <= 57 else { return nil }
                // 19 digits can exceed Int64.max (9223372036854775807): not a number, not a trap.
                let (tens, o1) = v.multipliedReportingOverflow(by: 10)
                let (sum, o2) = tens.addingReportingOverflow(Int64(b - 48))
                guard !o1 && !o2 else { return nil }
                v = sum
            }
            return v
        }

        var number: Double? {
            if let i = integer { return Double(i) }
            guard !bytes.isEmpty, bytes.count <= 32 else { return nil }
            if let d = plainDecimal { return d }
            guard let v = Double(String(decoding: bytes, as: UTF8.self)), v.isFinite else { return nil }
            return v
        }
    }

    /// Calls `body` with the fields of every data line (1-based line numbers).
    static func scan(_ bytes: [UInt8], source: String, _ body: ([Field], Int) throws(TrafficError) -> Void) throws(TrafficError) {
        guard !bytes.isEmpty else { throw TrafficError(source: source, "the file is empty") }
        let result = bytes.withUnsafeBufferPointer { buffer -> TrafficError? in
            var fields: [Field] = []
            fields.reserveCapacity(8)
            var lineStart = 0
            var line = 0
            let n = buffer.count
            while lineStart < n {
                var lineEnd = lineStart
                while lineEnd < n && buffer[lineEnd] != 10 { lineEnd += 1 }
                line += 1
                var end = lineEnd
                if end > lineStart && buffer[end - 1] == 13 { end -= 1 }
                var start = lineStart
                while start < end && (buffer[start] == 32 || buffer[start] == 9) { start += 1 }
                defer { lineStart = lineEnd + 1 }
                if start >= end || buffer[start] == 35 { continue }  // blank or '#'
                fields.removeAll(keepingCapacity: true)
                var f = start
                while true {
                    var e = f
                    while e < end && buffer[e] != 44 { e += 1 }
                    var a = f, b = e
                    while a < b && buffer[a] == 32 { a += 1 }
                    while b > a && buffer[b - 1] == 32 { b -= 1 }
                    fields.append(Field(bytes: UnsafeBufferPointer(rebasing: buffer[a..<b])))
                    if e >= end { break }
                    f = e + 1
                }
                // One header line of words is allowed.
                if line == 1, let first = fields.first?.bytes.first, (first >= 65 && first <= 90) || (first >= 97 && first <= 122) { continue }
                do throws(TrafficError) { try body(fields, line) } catch { return error }
            }
            return nil
        }
        if let result { throw result }
    }
}
