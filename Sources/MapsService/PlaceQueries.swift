public import Places

// The places queries are part of this layer's API: the server and the CLI build them and hand
// them to `MapsService`, which answers in MapsAPI's shapes.
public typealias PlaceSearchQuery = Places.PlaceSearchQuery
public typealias NearbyQuery = Places.NearbyQuery
public typealias ReverseGeocodeQuery = Places.ReverseGeocodeQuery
public typealias PlaceKind = Places.PlaceKind
