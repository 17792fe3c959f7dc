/// A WGS84 position stored as fixed-point degrees × 10⁷ (about 1.1 cm of latitude),
/// the resolution OpenStreetMap itself uses.
@frozen
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitudeE7: Int32
    public var longitudeE7: Int32

    @inlinable
    public init(latitudeE7: Int32, longitudeE7: Int32) {
        self.latitudeE7 = latitudeE7
        self.longitudeE7 = longitudeE7
    }

    /// Rounds degrees to the nearest 10⁻⁷; callers validate the range with `isValid(latitude:longitude:)`.
    @inlinable
    public init(latitude: Double, longitude: Double) {
        latitudeE7 = Int32((latitude * 1e7).rounded())
        longitudeE7 = Int32((longitude * 1e7).rounded())
    }

    @inlinable public var latitude: Double { Double(latitudeE7) * 1e-7 }
    @inlinable public var longitude: Double { Double(longitudeE7) * 1e-7 }

    /// True when both values are finite and within ±90° latitude and ±180° longitude.
    public static func isValid(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// "60.1699000,24.9384000" style with the given number of decimals.
    public func formatted(decimals: Int = 6) -> String {
        "\(Self.format(latitude, decimals)),\(Self.format(longitude, decimals))"
    }

    public var description: String { formatted() }

    /// Formats a degree value with a fixed number of decimals without Foundation.
    public static func format(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        var fractionText = String(fraction)
        while fractionText.count < decimals { fractionText = "0" + fractionText }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return decimals > 0 ? "\(sign)\(whole).\(fractionText)" : "\(sign)\(whole)"
    }

    /// Parses "lat,lon" (spaces allowed around the comma); nil when malformed or out of range.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingSpaces), let lon = Double(parts[1].trimmingSpaces),
              Coordinate.isValid(latitude: lat, longitude: lon) else { return nil }
        self.init(latitude: lat, longitude: lon)
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
