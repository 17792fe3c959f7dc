import Foundation

/// The body of `POST /timetoleave/1/watches`: a trip to watch until it is time to leave.
///
/// ```json
/// {"origin":{"lat":60.178,"lon":24.953},"destination":{"query":"Kamppi"},
///  "arriveAt":"2026-12-01T08:30:00+02:00","travelMode":"car","routeType":"fastest",
///  "avoid":["tollRoads"],"preparationTime":600,"traffic":true}
/// ```
public struct WatchRequest: Codable, Sendable, Equatable {
    public var origin: PlaceInput
    public var destination: PlaceInput
    /// Places to pass on the way, in order.
    public var waypoints: [PlaceInput]?
    /// RFC 3339 (`2026-12-01T08:30:00+02:00`), local (`2026-12-01T08:30`, the dataset's zone) or `HH:MM` (the next such time).
    public var arriveAt: String
    /// car (default), taxi, bicycle, pedestrian.
    public var travelMode: String?
    /// fastest (default), shortest, eco, thrilling.
    public var routeType: String?
    /// tollRoads, motorways, ferries, unpavedRoads, alreadyUsedRoads.
    public var avoid: [String]?
    /// Seconds needed to get ready before leaving (default 0).
    public var preparationTime: Double?
    /// Use live traffic (default true); false plans with historical speeds only, as TomTom's `traffic=false`.
    public var traffic: Bool?

    public init(origin: PlaceInput, destination: PlaceInput, waypoints: [PlaceInput]? = nil, arriveAt: String,
                travelMode: String? = nil, routeType: String? = nil, avoid: [String]? = nil,
                preparationTime: Double? = nil, traffic: Bool? = nil) {
        self.origin = origin
        self.destination = destination
        self.waypoints = waypoints
        self.arriveAt = arriveAt
        self.travelMode = travelMode
        self.routeType = routeType
        self.avoid = avoid
        self.preparationTime = preparationTime
        self.traffic = traffic
    }
}

/// A place as a client gives it: `{"lat":60.17,"lon":24.93}`, `{"latitude":…,"longitude":…}`,
/// `{"query":"Kamppi"}` (resolved through the geocoder), or a string that is either
/// `"60.17,24.93"` or a place name.
public struct PlaceInput: Codable, Sendable, Equatable {
    public var lat: Double?
    public var lon: Double?
    public var query: String?

    public init(lat: Double, lon: Double) {
        self.lat = lat
        self.lon = lon
    }

    public init(query: String) {
        self.query = query
    }

    private init() {}

    /// `"LAT,LON"` becomes coordinates, anything else a place name to look up.
    public init(text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, let a = Double(parts[0].trimmingCharacters(in: .whitespaces)),
           let b = Double(parts[1].trimmingCharacters(in: .whitespaces)) {
            lat = a
            lon = b
        } else {
            query = text
        }
    }

    enum CodingKeys: String, CodingKey { case lat, lon, latitude, longitude, query }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
            self.init(text: text)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var place = PlaceInput()
        place.lat = try c.decodeIfPresent(Double.self, forKey: .lat) ?? c.decodeIfPresent(Double.self, forKey: .latitude)
        place.lon = try c.decodeIfPresent(Double.self, forKey: .lon) ?? c.decodeIfPresent(Double.self, forKey: .longitude)
        place.query = try c.decodeIfPresent(String.self, forKey: .query)
        self = place
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(lat, forKey: .lat)
        try c.encodeIfPresent(lon, forKey: .lon)
        try c.encodeIfPresent(query, forKey: .query)
    }
}
