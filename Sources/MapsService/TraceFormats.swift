public import Foundation
public import MapsAPI
public import MapMatching
import GeoCore

/// One vehicle's positions as uploaded.
public struct UploadedTrack: Sendable {
    /// The vehicle (GPX `<trk><name>`, GeoJSON `properties.vehicle`, CSV `vehicle`), when given.
    public var vehicle: String?
    public var points: [TracePoint]
}

/// GPS traces in the forms clients send: GPX 1.1 (`trkpt`/`rtept` with `<time>`), GeoJSON
/// LineStrings with times (`properties.times` or `properties.coordTimes`, seconds since 1970 or
/// RFC 3339; a Feature or a FeatureCollection), or CSV with a header naming `lat`, `lon`,
/// `time` and optionally `vehicle` and `accuracy` (metres).
public enum TraceFormats {
    /// Parses a body, telling the form from its first character (`<` GPX, `{` GeoJSON, else CSV).
    /// At most `maxPoints` positions in all (a 413 naming the limit beyond).
    public static func parse(_ bytes: [UInt8], maxPoints: Int) throws(APIError) -> [UploadedTrack] {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .badInput("the body is not UTF-8 text", parameter: "body") }
        let trimmed = text.drop { $0.isWhitespace }
        let tracks: [UploadedTrack]
        switch trimmed.first {
        case "<": tracks = try gpx(String(trimmed), maxPoints: maxPoints)
        case "{": tracks = try geoJSON(bytes)
        case nil: throw .badInput("the body is empty; send GPX, a GeoJSON LineString with times, or CSV", parameter: "body")
        default: tracks = try csv(String(trimmed), maxPoints: maxPoints)
        }
        let total = tracks.reduce(0) { $0 + $1.points.count }
        guard total <= maxPoints else { throw tooMany(total, maxPoints) }
        return tracks
    }

    static func tooMany(_ count: Int, _ limit: Int) -> APIError {
        APIError(.tooBig, "at most \(limit) positions are allowed in one trace or upload (maxTracePoints), \(count)\(count > limit ? "" : "+") were sent",
                 parameter: "maxTracePoints")
    }

    static func point(lat: Double?, lon: Double?, time: Double?, accuracy: Double?, _ place: String) throws(APIError) -> TracePoint {
        guard let lat, let lon, Coordinate.isValid(latitude: lat, longitude: lon) else {
            throw .badInput("\(place): latitude must be in [-90, 90] and longitude in [-180, 180]", parameter: "body")
        }
        if let time, !(0...253_402_300_799).contains(time) { throw .badInput("\(place): the time must be between 1970 and 9999", parameter: "body") }
        if let accuracy, !(accuracy.isFinite && accuracy > 0 && accuracy <= 1000) {
            throw .badInput("\(place): accuracy must be between 0 and 1000 metres", parameter: "body")
        }
        return TracePoint(Coordinate(latitude: lat, longitude: lon), time: time, accuracyMeters: accuracy)
    }

    static func time(_ text: Substring) -> Double? {
        if let seconds = Double(text), seconds.isFinite { return seconds }
        return RFC3339.parse(String(text), defaultTimeZone: TimeZone(identifier: "UTC")!)?.timeIntervalSince1970
    }

    // MARK: GPX

    static func gpx(_ text: String, maxPoints: Int) throws(APIError) -> [UploadedTrack] {
        var tracks: [UploadedTrack] = []
        // Each <trk> (or <rte>) is a track; points outside any are one track.
        let parts = text.components(separatedBy: "<trk>")
        let pieces = parts.count > 1 ? Array(parts.dropFirst()) : parts
        var total = 0
        for piece in pieces {
            var track = UploadedTrack(vehicle: element("name", in: piece.components(separatedBy: "<trkseg>")[0]), points: [])
            var rest = Substring(piece)
            while let open = rest.range(of: "<trkpt") ?? rest.range(of: "<rtept") {
                let tail = rest[open.upperBound...]
                guard let close = tail.range(of: "/>") ?? tail.range(of: "pt>") else { break }
                let end = tail.range(of: "</trkpt>")?.upperBound ?? tail.range(of: "</rtept>")?.upperBound ?? close.upperBound
                let body = String(tail[..<min(end, tail.endIndex)])
                let place = "GPX point \(total + 1)"
                track.points.append(try point(lat: attribute("lat", in: body).flatMap(Double.init), lon: attribute("lon", in: body).flatMap(Double.init),
                                              time: element("time", in: body).flatMap { time(Substring($0)) }, accuracy: nil, place))
                total += 1
                guard total <= maxPoints else { throw tooMany(total, maxPoints) }
                rest = tail[end...]
            }
            if !track.points.isEmpty { tracks.append(track) }
        }
        guard !tracks.isEmpty else { throw .badInput("the GPX has no trkpt or rtept points", parameter: "body") }
        return tracks
    }

    static func attribute(_ name: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            if let r = text.range(of: " \(name)=\(quote)"), let e = text[r.upperBound...].firstIndex(of: Character(quote)) {
                return String(text[r.upperBound..<e])
            }
        }
        return nil
    }

    static func element(_ name: String, in text: String) -> String? {
        guard let r = text.range(of: "<\(name)>"), let e = text[r.upperBound...].range(of: "</\(name)>") else { return nil }
        return String(text[r.upperBound..<e.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: GeoJSON

    static func geoJSON(_ bytes: [UInt8]) throws(APIError) -> [UploadedTrack] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .badInput("the body is not valid JSON", parameter: "body")
        }
        var features: [[String: Any]] = []
        switch object["type"] as? String {
        case "FeatureCollection": features = (object["features"] as? [[String: Any]]) ?? []
        case "Feature": features = [object]
        case "LineString": features = [["type": "Feature", "geometry": object, "properties": [String: Any]()]]
        default: throw .badInput("GeoJSON must be a LineString, a Feature or a FeatureCollection of LineStrings", parameter: "body")
        }
        var tracks: [UploadedTrack] = []
        for (f, feature) in features.enumerated() {
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "LineString",
                  let coordinates = geometry["coordinates"] as? [[Any]] else {
                throw .badInput("feature \(f) is not a LineString", parameter: "body")
            }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let times = (properties["times"] ?? properties["coordTimes"]) as? [Any]
            let accuracies = properties["accuracies"] as? [Any]
            if let times, times.count != coordinates.count {
                throw .badInput("feature \(f): \(times.count) times for \(coordinates.count) coordinates", parameter: "body")
            }
            var track = UploadedTrack(vehicle: (properties["vehicle"] ?? properties["id"] ?? feature["id"]).map { "\($0)" }, points: [])
            for (i, c) in coordinates.enumerated() {
                let t: Double? = times.flatMap { list in (list[i] as? NSNumber)?.doubleValue ?? (list[i] as? String).flatMap { time(Substring($0)) } }
                if times != nil && t == nil { throw .badInput("feature \(f), coordinate \(i): the time is not seconds since 1970 or RFC 3339", parameter: "body") }
                let accuracy = accuracies.flatMap { i < $0.count ? ($0[i] as? NSNumber)?.doubleValue : nil }
                track.points.append(try point(lat: c.count >= 2 ? (c[1] as? NSNumber)?.doubleValue : nil, lon: (c.first as? NSNumber)?.doubleValue,
                                              time: t, accuracy: accuracy, "feature \(f), coordinate \(i)"))
            }
            tracks.append(track)
        }
        return tracks
    }

    // MARK: CSV

    static func csv(_ text: String, maxPoints: Int) throws(APIError) -> [UploadedTrack] {
        var lines = text.split(whereSeparator: \.isNewline).makeIterator()
        guard let headerLine = lines.next() else { throw .badInput("the CSV is empty", parameter: "body") }
        let header = headerLine.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0) } }
        guard let latColumn = column(["lat", "latitude"]), let lonColumn = column(["lon", "lng", "longitude"]) else {
            throw .badInput("the CSV header must name lat and lon columns (and time, optionally vehicle and accuracy)", parameter: "body")
        }
        let timeColumn = column(["time", "timestamp"]), vehicleColumn = column(["vehicle", "vehicle_id", "id"]), accuracyColumn = column(["accuracy"])
        var order: [String] = []
        var byVehicle: [String: [TracePoint]] = [:]
        var n = 1
        while let line = lines.next() {
            n += 1
            if line.allSatisfy(\.isWhitespace) { continue }
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            func field(_ i: Int?) -> Substring? { i.flatMap { $0 < fields.count && !fields[$0].isEmpty ? Substring(fields[$0]) : nil } }
            let t = field(timeColumn)
            let parsedTime = t.flatMap(time)
            if t != nil && parsedTime == nil { throw .badInput("CSV line \(n): the time is not seconds since 1970 or RFC 3339", parameter: "body") }
            let p = try point(lat: field(latColumn).flatMap { Double($0) }, lon: field(lonColumn).flatMap { Double($0) }, time: parsedTime,
                              accuracy: field(accuracyColumn).flatMap { Double($0) }, "CSV line \(n)")
            let vehicle = field(vehicleColumn).map(String.init) ?? ""
            if byVehicle[vehicle] == nil { order.append(vehicle) }
            byVehicle[vehicle, default: []].append(p)
            guard n - 1 <= maxPoints else { throw tooMany(n - 1, maxPoints) }
        }
        guard !order.isEmpty else { throw .badInput("the CSV has no positions", parameter: "body") }
        return order.map { UploadedTrack(vehicle: $0.isEmpty ? nil : $0, points: byVehicle[$0]!) }
    }
}
