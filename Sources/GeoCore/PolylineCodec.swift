/// Google's encoded polyline algorithm, at precision 5 (OSRM `polyline`), 6 (OSRM `polyline6`) or 7
/// (TomTom's `encodedPolyline`).
public enum PolylineCodec {
    public static func encode(_ coordinates: [Coordinate], precision: Int = 5) -> String {
        let factor = scale(precision)
        var output: [UInt8] = []
        output.reserveCapacity(coordinates.count * 8)
        var previousLat = 0, previousLon = 0
        for c in coordinates {
            let lat = Int((c.latitude * factor).rounded()), lon = Int((c.longitude * factor).rounded())
            append(lat - previousLat, to: &output)
            append(lon - previousLon, to: &output)
            previousLat = lat
            previousLon = lon
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func append(_ value: Int, to output: inout [UInt8]) {
        var v = value < 0 ? ~(value << 1) : (value << 1)
        while v >= 0x20 {
            output.append(UInt8((0x20 | (v & 0x1f)) + 63))
            v >>= 5
        }
        output.append(UInt8(v + 63))
    }

    /// Decodes an encoded polyline; nil when the text is not a valid encoding.
    public static func decode(_ text: String, precision: Int = 5) -> [Coordinate]? {
        let factor = scale(precision)
        let bytes = Array(text.utf8)
        var index = 0, lat = 0, lon = 0
        var result: [Coordinate] = []
        func next() -> Int? {
            var shift = 0, value = 0
            while true {
                guard index < bytes.count, shift < 60 else { return nil }
                let b = Int(bytes[index]) - 63
                index += 1
                guard b >= 0 && b < 64 else { return nil }
                value |= (b & 0x1f) << shift
                shift += 5
                if b < 0x20 { break }
            }
            return (value & 1) != 0 ? ~(value >> 1) : (value >> 1)
        }
        while index < bytes.count {
            guard let dLat = next(), let dLon = next() else { return nil }
            lat += dLat
            lon += dLon
            let latitude = Double(lat) / factor, longitude = Double(lon) / factor
            guard Coordinate.isValid(latitude: latitude, longitude: longitude) else { return nil }
            result.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        return result
    }

    /// 10^precision, for the precisions the formats use (5 when another is asked).
    static func scale(_ precision: Int) -> Double {
        switch precision {
        case 6: 1e6
        case 7: 1e7
        default: 1e5
        }
    }
}
