public import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
public import MapsAPI

/// A GPS trace to match to roads.
public struct MatchRequest: Sendable {
    /// One fix: where, when, and how accurate (σ in metres, as a GPS reports it).
    public struct Fix: Sendable {
        public var coordinate: Coordinate
        public var time: Date?
        public var accuracyMeters: Double?
        public init(_ coordinate: Coordinate, time: Date? = nil, accuracyMeters: Double? = nil) {
            self.coordinate = coordinate
            self.time = time
            self.accuracyMeters = accuracyMeters
        }
    }

    public var fixes: [Fix]
    public var travelMode: TravelMode = .car
    /// Start a new matching after a gap of more than 60 s between fixes (OSRM's `gaps=split`).
    public var splitAtGaps = true
    /// Leave out fixes within 10 m of the previous one (`tidy`).
    public var tidy = false

    public init(_ fixes: [Fix]) { self.fixes = fixes }
}

extension WayfinderClient {
    /// Matches a trace to roads (`POST /match/v1`, sent as CSV so long traces fit): the matched
    /// stretches with their confidence, full GeoJSON geometry and OSM nodes, and where each fix
    /// was matched (nil for one dropped as an outlier).
    public func match(_ request: MatchRequest) async throws(WayfinderError) -> OSRM.MatchResponse {
        guard request.fixes.count >= 2 else { throw .invalidQuery("a trace needs at least two fixes", parameter: "coordinates") }
        for f in request.fixes where !f.coordinate.isValid { throw .invalidQuery("\(f.coordinate) is not a valid coordinate", parameter: "coordinates") }
        let timed = request.fixes.allSatisfy { $0.time != nil }
        var csv = "lat,lon" + (timed ? ",time" : "") + ",accuracy\n"
        for f in request.fixes {
            csv += "\(Coordinate.degrees(f.coordinate.latitude, 7)),\(Coordinate.degrees(f.coordinate.longitude, 7))"
            if timed, let t = f.time { csv += ",\(Int64(t.timeIntervalSince1970.rounded()))" }
            csv += "," + (f.accuracyMeters.map { String($0) } ?? "") + "\n"
        }
        let profile = switch request.travelMode {
        case .car: "driving"
        case .taxi: "taxi"
        case .bicycle: "cycling"
        case .pedestrian: "walking"
        }
        let data = try await send(Endpoint("POST", "/match/v1/\(profile)",
                                           query: [("gaps", request.splitAtGaps ? "split" : "ignore"), ("tidy", String(request.tidy)),
                                                   ("overview", "full"), ("geometries", "geojson"), ("annotations", "nodes,distance,duration")],
                                           body: Data(csv.utf8), contentType: "text/csv"))
        let response = try ResponseDecoding.decode(OSRM.MatchResponse.self, from: data)
        guard response.code == "Ok" else { throw ErrorMapping.error(status: 400, body: data) }
        return response
    }
}
