public import Foundation
public import MapsAPI

/// A measured speed on one road segment, by the OSM ids of its two nodes in driving direction.
public struct SegmentSpeed: Sendable, Hashable {
    /// OSM id of the node the segment leaves.
    public var fromNodeID: Int64
    /// OSM id of the node the segment enters.
    public var toNodeID: Int64
    /// The speed now, in km/h (0...300; 0 is a standstill).
    public var speedKmh: Double

    /// A speed of `speedKmh` from node `fromNodeID` to node `toNodeID`.
    public init(from fromNodeID: Int64, to toNodeID: Int64, speedKmh: Double) {
        self.fromNodeID = fromNodeID
        self.toNodeID = toNodeID
        self.speedKmh = speedKmh
    }
}

/// A road segment by the OSM ids of its two nodes in driving direction (for closures).
public struct RoadSegment: Sendable, Hashable {
    /// OSM id of the node the segment leaves.
    public var fromNodeID: Int64
    /// OSM id of the node the segment enters.
    public var toNodeID: Int64

    /// The segment from node `fromNodeID` to node `toNodeID`.
    public init(from fromNodeID: Int64, to toNodeID: Int64) {
        self.fromNodeID = fromNodeID
        self.toNodeID = toNodeID
    }
}

/// What the server did with a live traffic upload.
public typealias TrafficUpdateReport = MapsAPI.TrafficUpdateReport

/// The live traffic in force on the server.
public typealias TrafficStatusReport = MapsAPI.TrafficStatusReport

extension WayfinderClient {
    /// Uploads live speeds (operators): they count for routes within a second, on every
    /// replica sharing the dataset, until `expiresAfter` seconds have passed.
    ///
    /// Segments not on the road network are counted in ``TrafficUpdateReport/unmatchedSegments``, not rejected;
    /// a malformed line is ``WayfinderError/invalidQuery(_:parameter:)`` naming the line.
    public func uploadTrafficSpeeds(_ speeds: [SegmentSpeed], expiresAfter seconds: TimeInterval = 3600) async throws(WayfinderError) -> TrafficUpdateReport {
        guard !speeds.isEmpty else { throw .invalidQuery("no speeds to upload", parameter: "body") }
        for s in speeds where !(s.speedKmh.isFinite && (0...300).contains(s.speedKmh)) {
            throw .invalidQuery("speed \(s.speedKmh) km/h from node \(s.fromNodeID) is not in 0...300", parameter: "body")
        }
        let csv = speeds.map { "\($0.fromNodeID),\($0.toNodeID),\(Self.speedText($0.speedKmh))" }.joined(separator: "\n") + "\n"
        return try await uploadTrafficSpeeds(csv: csv, expiresAfter: seconds)
    }

    /// Uploads live speeds as OSRM's segment speed CSV (`from_osm_node_id,to_osm_node_id,speed_kmh` per line).
    public func uploadTrafficSpeeds(csv: String, expiresAfter seconds: TimeInterval = 3600) async throws(WayfinderError) -> TrafficUpdateReport {
        try await uploadTraffic("/traffic/1/speeds", csv: csv, expiresAfter: seconds)
    }

    /// Closes road segments (operators) until `expiresAfter` seconds have passed.
    public func closeRoads(_ segments: [RoadSegment], expiresAfter seconds: TimeInterval = 3600) async throws(WayfinderError) -> TrafficUpdateReport {
        guard !segments.isEmpty else { throw .invalidQuery("no segments to close", parameter: "body") }
        let csv = segments.map { "\($0.fromNodeID),\($0.toNodeID)" }.joined(separator: "\n") + "\n"
        return try await uploadTraffic("/traffic/1/closures", csv: csv, expiresAfter: seconds)
    }

    /// The live traffic updates in force and each mode's traffic snapshot.
    public func trafficStatus() async throws(WayfinderError) -> TrafficStatusReport {
        try await get("/traffic/1/status", as: TrafficStatusReport.self)
    }

    func uploadTraffic(_ path: String, csv: String, expiresAfter seconds: TimeInterval) async throws(WayfinderError) -> TrafficUpdateReport {
        guard seconds >= 1, seconds <= 7 * 86_400 else {
            throw .invalidQuery("expiresAfter must be between 1 second and 7 days", parameter: "expiresIn")
        }
        let data = try await send(Endpoint("POST", path, query: [("expiresIn", String(Int(seconds.rounded())))],
                                           body: Data(csv.utf8), contentType: "text/csv"))
        return try ResponseDecoding.decode(TrafficUpdateReport.self, from: data)
    }

    static func speedText(_ v: Double) -> String {
        v == v.rounded() ? String(Int(v)) : String(format: "%.2f", v)
    }
}
