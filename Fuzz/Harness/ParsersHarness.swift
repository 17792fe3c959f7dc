public import Foundation
public import GeoCore
import HTTPServer
import MapsAPI
import MapsService

/// The result of giving one input to every small text parser.
public struct ParsersOutcome: FuzzOutcome {
    public var time: Date?
    public var duration: Double?
    public var coordinate: Coordinate?
    public var polylinePoints: Int?
    public var requestTargetParsed = false
    public var problems: [String] = []

    public var summary: String {
        "time: \(time.map { "\($0.timeIntervalSince1970)" } ?? "-"), duration: \(duration.map { "\($0)" } ?? "-"), "
            + "coordinate: \(coordinate.map { $0.formatted(decimals: 7) } ?? "-"), polyline: \(polylinePoints.map(String.init) ?? "-"), "
            + "request target: \(requestTargetParsed ? "ok" : "rejected")"
    }
}

extension FuzzHarness {
    /// A fixed "now" and zone, so that every run of an input does the same thing.
    static let parserNow = Date(timeIntervalSince1970: 1_796_000_400)
    static let parserZone = TimeZone(identifier: "Europe/Monaco") ?? TimeZone(secondsFromGMT: 3600)!

    /// Gives the input, as text, to the time parser (`TimeInput.parse`, `RFC3339`), the duration
    /// parser, `Coordinate(parsing:)`, the polyline decoder and the request-target parser, and
    /// checks what each accepts: finite times that format back, finite durations,
    /// coordinates in range that survive a format/parse round trip, polylines that re-encode to
    /// the same points.
    public static func parsers(_ bytes: UnsafeRawBufferPointer) -> ParsersOutcome {
        let text = String(decoding: bytes, as: UTF8.self)
        var outcome = ParsersOutcome()

        if let date = TimeInput.parse(text, timeZone: parserZone, now: parserNow) {
            outcome.time = date
            if !date.timeIntervalSince1970.isFinite {
                outcome.problems.append("time \(text.debugDescription) parsed to a non-finite date")
            } else {
                _ = RFC3339.format(date, in: parserZone)
            }
        }
        if let seconds = TimeInput.duration(text) {
            outcome.duration = seconds
            if !(seconds.isFinite && seconds >= 0) {
                outcome.problems.append("duration \(text.debugDescription) parsed to \(seconds) seconds")
            }
        }
        if let c = Coordinate(parsing: text) {
            outcome.coordinate = c
            if !Coordinate.isValid(latitude: c.latitude, longitude: c.longitude) {
                outcome.problems.append("coordinate \(text.debugDescription) parsed out of range: \(c)")
            } else if Coordinate(parsing: c.formatted(decimals: 7)) != c {
                outcome.problems.append("coordinate \(c.latitudeE7),\(c.longitudeE7) does not survive formatting as \(c.formatted(decimals: 7))")
            }
        }
        for precision in [5, 6] {
            guard let points = PolylineCodec.decode(text, precision: precision) else { continue }
            outcome.polylinePoints = points.count
            if let bad = points.first(where: { !Coordinate.isValid(latitude: $0.latitude, longitude: $0.longitude) }) {
                outcome.problems.append("polyline decoded to \(bad), out of range")
            } else if PolylineCodec.decode(PolylineCodec.encode(points, precision: precision), precision: precision) != points {
                outcome.problems.append("polyline \(text.debugDescription) does not re-encode to the same \(points.count) points at precision \(precision)")
            }
        }
        for method in [HTTPMethod.get, .post] {
            if let request = try? HTTPRequest(method: method, target: text, body: Array(text.utf8)) {
                outcome.requestTargetParsed = true
                if !(request.path.utf8.first == UInt8(ascii: "/") || request.path == "*") {
                    outcome.problems.append("request target \(text.debugDescription) parsed to path \(request.path.debugDescription)")
                }
                _ = request.bodyText
            }
        }
        return outcome
    }
}
