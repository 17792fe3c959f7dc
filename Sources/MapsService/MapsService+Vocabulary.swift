public import MapMatching
public import Places
public import RoutePlanning

// The value types of the service's requests and answers that come from the modules beneath it,
// named here so that the server speaks to MapsService alone.

/// A location bias of a search (Places).
public typealias LocationBias = Places.LocationBias
/// Node, way or relation (Places).
public typealias OSMObjectType = Places.OSMObjectType
/// What reverse geocoding tells of a road (Places).
public typealias RoadAttributes = Places.RoadAttributes
/// One fix of a trace to match (MapMatching).
public typealias TracePoint = MapMatching.TracePoint
/// How one waypoint meets the roads (OSRM's radiuses, bearings, approaches, snapping).
public typealias WaypointSnapping = RoutePlanning.WaypointSnapping
