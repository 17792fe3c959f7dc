#!/usr/bin/env python3
"""Writes Sources/MapsServer/Resources/openapi.json: the OpenAPI 3.1 description of the HTTP API.

Kept as a small generator (rather than a hand-edited JSON file) so the shared schemas are written
once. Run it after changing an endpoint; the test suite checks the served document against real
responses, and tests/contract/run.sh drives schemathesis with it. The `example` values are places
in the Monaco sample those tests serve, so schemathesis's examples phase sends real requests whose
successful answers are checked against the response schemas too.
"""
import json, os

# The sectionType values answers carry (TomTom's UPPER_SNAKE names).
section_names = ["TRAVEL_MODE", "TOLL_ROAD", "FERRY", "MOTORWAY", "TUNNEL", "UNPAVED", "PEDESTRIAN", "TRAFFIC", "LANES"]
def ref(name): return {"$ref": f"#/components/schemas/{name}"}
def q(name, schema, desc, required=False, explode=None, example=None):
    p = {"name": name, "in": "query", "required": required, "description": desc, "schema": schema}
    if explode is not None: p["explode"] = explode
    if example is not None: p["example"] = example
    return p
def path_param(name, desc, schema=None, example=None):
    p = {"name": name, "in": "path", "required": True, "description": desc, "schema": schema or {"type": "string"}}
    if example is not None: p["example"] = example
    return p
def example(parameters, **values):
    """The parameters with examples for the named ones (shared lists stay untouched)."""
    return [{**p, "example": values[p["name"]]} if p["name"] in values else p for p in parameters]
def json_response(schema, desc="OK"):
    return {"description": desc, "content": {"application/json": {"schema": schema}}}

time_sources = ["freeFlow", "live", "importedProfiles", "learnedProfiles", "demoCongestion"]
num = {"type": "number"}
integer = {"type": "integer"}
flag01 = {"type": "integer", "enum": [0, 1]}
string = {"type": "string"}
boolean = {"type": "boolean"}
latlon = {"type": "object", "required": ["latitude", "longitude"],
          "properties": {"latitude": num, "longitude": num}}
position = {"type": "object", "required": ["lat", "lon"], "properties": {"lat": num, "lon": num}}

schemas = {
    "LatLon": latlon,
    "Position": position,
    "RouteSummary": {"type": "object", "required": ["lengthInMeters", "travelTimeInSeconds", "trafficDelayInSeconds",
                                                    "trafficLengthInMeters", "departureTime", "arrivalTime"],
                     "properties": {"lengthInMeters": integer, "travelTimeInSeconds": integer, "trafficDelayInSeconds": integer,
                                    "trafficLengthInMeters": integer, "departureTime": string, "arrivalTime": string,
                                    "noTrafficTravelTimeInSeconds": integer, "historicTrafficTravelTimeInSeconds": integer,
                                    "liveTrafficIncidentsTravelTimeInSeconds": integer, "fuelConsumptionInLiters": num,
                                    "deviationDistance": integer, "deviationTime": integer,
                                    "timeSources": {"type": "array", "items": {"enum": time_sources},
                                                    "description": "where the route's times come from (Wayfinder's addition)"}}},
    "Instruction": {"type": "object", "required": ["routeOffsetInMeters", "travelTimeInSeconds", "point", "pointIndex",
                                                   "instructionType", "possibleCombineWithNext", "drivingSide", "maneuver"],
                    "properties": {"routeOffsetInMeters": integer, "travelTimeInSeconds": integer, "point": ref("LatLon"),
                                   "pointIndex": integer, "instructionType": string, "street": string,
                                   "roadNumbers": {"type": "array", "items": string}, "junctionType": string,
                                   "turnAngleInDecimalDegrees": integer, "roundaboutExitNumber": integer,
                                   "possibleCombineWithNext": boolean, "drivingSide": {"type": "string", "enum": ["LEFT", "RIGHT"]},
                                   "maneuver": string, "message": string, "combinedMessage": string, "countryCode": string,
                                   "signpostText": {**string, "description": "where the road taken leads, as signed (destination:ref: destination)"},
                                   "exitNumber": {**string, "description": "the motorway exit's number"}}},
    "Route": {"type": "object", "required": ["summary", "legs", "sections"],
              "properties": {
                  "summary": ref("RouteSummary"),
                  "legs": {"type": "array", "items": {"type": "object", "required": ["summary"],
                                                      "properties": {"summary": ref("RouteSummary"),
                                                                     "points": {"type": "array", "items": ref("LatLon")},
                                                                     "encodedPolyline": {**string, "description": "routeRepresentation=encodedPolyline: the points, Google's algorithm"},
                                                                     "encodedPolylinePrecision": {"type": "integer", "enum": [7]}}}},
                  "sections": {"type": "array", "items": {"type": "object", "required": ["startPointIndex", "endPointIndex", "sectionType"],
                                                          "properties": {"startPointIndex": integer, "endPointIndex": integer,
                                                                         "sectionType": {"type": "string", "enum": section_names}, "travelMode": string,
                                                                         "simpleCategory": string, "effectiveSpeedInKmh": integer,
                                                                         "delayInSeconds": integer, "magnitudeOfDelay": integer,
                                                                         "lanes": {"type": "array", "items": {"type": "object", "required": ["directions"],
                                                                             "properties": {"directions": {"type": "array", "items": string}, "follow": string}}}}}},
                  "guidance": {"type": "object", "required": ["instructions", "instructionGroups"],
                               "properties": {"instructions": {"type": "array", "items": ref("Instruction")},
                                              "instructionGroups": {"type": "array", "items": {"type": "object"}}}},
                  "steps": {"type": "array", "items": {"type": "object", "required": ["instruction", "distanceInMeters", "travelTimeInSeconds", "maneuver", "points"],
                                                       "properties": {"instruction": string, "distanceInMeters": integer,
                                                                      "travelTimeInSeconds": integer, "maneuver": string, "street": string,
                                                                      "points": {"type": "array", "items": ref("LatLon")}}}},
                  "advisoryNotices": {"type": "array", "items": string}}},
    "CalculateRouteResponse": {"type": "object", "required": ["formatVersion", "routes"],
                               "properties": {"formatVersion": string, "routes": {"type": "array", "items": ref("Route")},
                                              "optimizedWaypoints": {"type": "array", "items": {"type": "object",
                                                  "properties": {"providedIndex": integer, "optimizedIndex": integer}}},
                                              "waypoints": {"type": "array", "items": {"type": "object"}},
                                              "report": {"type": "object", "required": ["effectiveSettings"], "properties": {
                                                  "effectiveSettings": {"type": "array", "items": {"type": "object", "required": ["key", "value"],
                                                                                                   "properties": {"key": string, "value": string}}}}}}},
    "RoutingError": {"type": "object", "required": ["error", "detailedError"],
                     "properties": {"formatVersion": string,
                                    "error": {"type": "object", "required": ["description"], "properties": {"description": string}},
                                    "detailedError": {"type": "object", "required": ["code", "message"],
                                                      "properties": {"code": string, "message": string, "target": string}},
                                    "httpStatusCode": integer}},
    "SearchError": {"type": "object", "required": ["errorText", "httpStatusCode", "detailedError"],
                    "properties": {"errorText": string, "error": string, "httpStatusCode": integer,
                                   "detailedError": {"type": "object", "required": ["code", "message"],
                                                     "properties": {"code": string, "message": string, "target": string}}}},
    "SearchResult": {"type": "object", "required": ["type", "id", "score", "address", "position"],
                     "properties": {"type": string, "id": string, "score": num, "dist": num, "info": string,
                                    "poi": {"type": "object", "required": ["name"], "properties": {
                                        "name": string, "phone": string, "url": string,
                                        "categories": {"type": "array", "items": string},
                                        "categorySet": {"type": "array", "items": {"type": "object", "properties": {"id": integer}}}}},
                                    "address": {"type": "object", "required": ["freeformAddress"], "properties": {"freeformAddress": string}},
                                    "position": ref("Position"), "detourTime": integer, "detourDistance": integer, "detourOffset": integer}},
    "SearchResponse": {"type": "object", "required": ["summary", "results"],
                       "properties": {"summary": {"type": "object", "required": ["query", "queryType", "queryTime", "numResults", "offset", "totalResults"],
                                                  "properties": {"query": string, "queryType": string, "queryTime": integer,
                                                                 "numResults": integer, "offset": integer, "totalResults": integer,
                                                                 "fuzzyLevel": integer}},
                                      "results": {"type": "array", "items": ref("SearchResult")}}},
    "ReverseGeocodeResponse": {"type": "object", "required": ["summary", "addresses"],
                               "properties": {"summary": {"type": "object"},
                                              "addresses": {"type": "array", "items": {"type": "object", "required": ["address", "position"],
                                                  "properties": {"address": {"type": "object", "required": ["freeformAddress"],
                                                                             "properties": {"freeformAddress": string}},
                                                                 "position": string}}}}},
    "POICategories": {"type": "object", "required": ["poiCategories"],
                      "properties": {"poiCategories": {"type": "array", "items": {"type": "object", "required": ["id", "name"],
                          "properties": {"id": integer, "name": string, "childCategoryIds": {"type": "array", "items": integer},
                                         "synonyms": {"type": "array", "items": string}}}}}},
    "TrafficApplyReport": {"type": "object", "required": ["id", "kind", "entries", "matchedSegments", "unmatchedSegments", "expiresAt"],
                           "properties": {"id": string, "kind": string, "entries": integer, "matchedSegments": integer,
                                          "unmatchedSegments": integer, "expiresAt": string, "parseMilliseconds": num, "applyMilliseconds": num}},
    "OSRMError": {"type": "object", "required": ["code", "message"], "properties": {"code": string, "message": string}},
    "OSRMRoute": {"type": "object", "required": ["code", "routes", "waypoints"],
                  "properties": {"code": {"const": "Ok"}, "routes": {"type": "array", "items": {"type": "object",
                      "required": ["legs", "distance", "duration", "weight"],
                      "properties": {"distance": num, "duration": num, "weight": num, "weight_name": string,
                                     "time_sources": {"type": "array", "items": {"enum": time_sources},
                                                      "description": "where the route's times come from (Wayfinder's addition)"},
                                     "legs": {"type": "array", "items": ref("OSRMLeg")}}}},
                                 "waypoints": {"type": "array", "items": {"type": "object", "required": ["location", "name", "distance"]}}}},
    "OSRMLeg": {"type": "object", "required": ["steps", "summary", "weight", "duration", "distance"],
                "properties": {"steps": {"type": "array", "items": ref("OSRMStep")}, "summary": string,
                               "weight": num, "duration": num, "distance": num, "annotation": {"type": "object"}}},
    "OSRMStep": {"type": "object", "required": ["maneuver", "mode", "driving_side", "name", "intersections", "weight", "duration", "distance"],
                 "properties": {"geometry": {}, "mode": string, "driving_side": {"type": "string", "enum": ["left", "right"]},
                                "name": string, "ref": {**string, "description": "the road's numbers, as its shields show them"},
                                "destinations": {**string, "description": "where the road leads, as signed (\"A 5: Darmstadt, Frankfurt\")"},
                                "exits": {**string, "description": "the exit number of a ramp"},
                                "rotary_name": {**string, "description": "the name of a rotary (a large named circle)"},
                                "weight": num, "duration": num, "distance": num,
                                "maneuver": {"type": "object", "required": ["bearing_after", "bearing_before", "location", "type"],
                                             "properties": {"bearing_after": integer, "bearing_before": integer,
                                                            "location": {"type": "array", "items": num}, "type": string,
                                                            "modifier": string, "exit": {**integer, "description": "the roundabout exit taken"},
                                                            "instruction": {**string, "description": "the instruction in the asked language"}}},
                                "intersections": {"type": "array", "items": {"type": "object", "required": ["location", "bearings", "entry"],
                                    "properties": {"location": {"type": "array", "items": num}, "bearings": {"type": "array", "items": integer},
                                                   "entry": {"type": "array", "items": boolean}, "in": integer, "out": integer,
                                                   "lanes": {"type": "array", "items": {"type": "object", "required": ["indications", "valid"],
                                                       "properties": {"indications": {"type": "array", "items": string}, "valid": boolean}}}}}}}},
    "NominatimError": {"type": "object", "required": ["error"]},
    "PlaceInput": {"oneOf": [{"type": "string", "description": "\"lat,lon\" or a place name"},
                             {"type": "object", "properties": {"lat": num, "lon": num, "latitude": num, "longitude": num, "query": string}}]},
    "WatchRequest": {"type": "object", "required": ["origin", "destination", "arriveAt"],
                     "properties": {"origin": ref("PlaceInput"), "destination": ref("PlaceInput"),
                                    "waypoints": {"type": "array", "items": ref("PlaceInput")},
                                    "arriveAt": {**string, "description": "RFC 3339, local date-time in the dataset's zone, or HH:MM"},
                                    "travelMode": {"type": "string", "enum": ["car", "taxi", "bicycle", "pedestrian"]},
                                    "routeType": {"type": "string", "enum": ["fastest", "shortest", "eco", "thrilling"]},
                                    "avoid": {"type": "array", "items": string}, "preparationTime": num, "traffic": {"type": "boolean"}}},
    "Watch": {"type": "object", "required": ["id", "status", "arriveAt", "origin", "destination", "planCount"],
              "properties": {"id": string, "status": string, "now": string, "createdAt": string, "arriveAt": string,
                             "origin": {"type": "object"}, "destination": {"type": "object"},
                             "departureTime": string, "prepareBy": string, "arrivalTime": string,
                             "secondsUntilDeparture": integer, "travelTimeInSeconds": integer, "trafficDelayInSeconds": integer,
                             "lengthInMeters": integer, "lateBySeconds": integer, "planCount": integer, "lastEventId": integer}},
    "ReachableRange": {"type": "object", "required": ["formatVersion", "reachableRange"],
                       "properties": {"formatVersion": string, "reachableRange": {"type": "object", "required": ["center", "boundary"],
                           "properties": {"center": ref("LatLon"), "boundary": {"type": "array", "items": ref("LatLon")}}}}},
    "Isochrones": {"type": "object", "required": ["type", "features"],
                   "properties": {"type": {"const": "FeatureCollection"}, "id": string,
                                  "features": {"type": "array", "items": {"type": "object", "required": ["type", "geometry", "properties"],
                                      "properties": {"type": {"const": "Feature"},
                                                     "geometry": {"type": "object", "required": ["type", "coordinates"],
                                                                  "properties": {"type": {"enum": ["Polygon", "MultiPolygon", "LineString", "MultiLineString", "MultiPoint"]},
                                                                                 "coordinates": {"type": "array"}}},
                                                     "properties": {"type": "object", "properties": {"contour": num, "metric": string, "color": string}}}}}}},
    "ValhallaError": {"type": "object", "required": ["error_code", "error", "status_code"],
                      "properties": {"error_code": integer, "error": string, "status_code": integer, "status": string}},
    "MatrixRequest": {"type": "object", "required": ["origins", "destinations"],
                      "properties": {"origins": {"type": "array", "items": {"type": "object", "required": ["point"], "properties": {"point": ref("LatLon")}}},
                                     "destinations": {"type": "array", "items": {"type": "object", "required": ["point"], "properties": {"point": ref("LatLon")}}},
                                     "options": {"type": "object", "properties": {
                                         "departAt": {**string, "description": "now, any or RFC 3339"}, "arriveAt": {**string, "description": "RFC 3339"},
                                         "routeType": {"enum": ["fastest", "shortest", "eco", "thrilling"]},
                                         "travelMode": {"enum": ["car", "taxi", "bicycle", "pedestrian"]},
                                         "traffic": {"enum": ["live", "historical"]},
                                         "avoid": {"type": "array", "items": {"enum": ["tollRoads", "motorways", "ferries", "unpavedRoads"]}}}}}},
    "Matrix": {"type": "object", "required": ["data", "statistics"],
               "properties": {"data": {"type": "array", "items": {"type": "object", "required": ["originIndex", "destinationIndex"],
                                  "properties": {"originIndex": integer, "destinationIndex": integer,
                                                 "routeSummary": {"type": "object", "required": ["lengthInMeters", "travelTimeInSeconds", "departureTime", "arrivalTime"],
                                                                  "properties": {"lengthInMeters": integer, "travelTimeInSeconds": integer,
                                                                                 "trafficDelayInSeconds": integer, "trafficLengthInMeters": integer,
                                                                                 "departureTime": string, "arrivalTime": string}},
                                                 "detailedError": {"type": "object", "required": ["code", "message"]}}}},
                              "statistics": {"type": "object", "required": ["totalCount", "successes", "failures"],
                                             "properties": {"totalCount": integer, "successes": integer, "failures": integer}}}},
    "MatrixJob": {"type": "object", "required": ["jobId", "state", "totalCount"],
                  "properties": {"jobId": string, "state": {"enum": ["Submitted", "InProgress", "Completed", "Failed"]}, "totalCount": integer,
                                 "statistics": {"type": "object"}, "error": {"type": "object"}}},
    "Health": {"type": "object", "required": ["status", "dataset", "limits"],
               "properties": {"status": string, "dataset": {**string, "description": "the dataset's version (changes with every import)"},
                              "datasetCreatedAt": string, "source": string, "timeZone": string,
                              "boundingBox": {"type": "array", "items": num, "minItems": 4, "maxItems": 4,
                                              "description": "[minLon, minLat, maxLon, maxLat]"},
                              "profiles": {"type": "array", "items": string}, "uptimeSeconds": integer,
                              "trafficUpdates": integer,
                              "trafficUpdateAgeSeconds": {**integer, "description": "seconds since the newest live update in force"},
                              "tiles": {"type": "boolean"},
                              "apiKeyRequired": {"type": "boolean", "description": "the other endpoints want key= (serve --api-keys)"},
                              "drivingSide": {"type": "string", "enum": ["LEFT", "RIGHT"], "description": "the side traffic keeps to in the dataset's country"},
                              "instructionLanguages": {"type": "array", "items": string,
                                                       "description": "languages instructions can be given in (base tags; any region is accepted)"},
                              "timeModel": {"type": "object", "description": "the sources of travel times in force",
                                            "required": ["sources", "demoCongestion", "importedProfileSegments", "learnedSegments",
                                                         "learnedObservedSlots", "learnedSlots", "minimumObservations"],
                                            "properties": {"sources": {"type": "array", "items": {"enum": time_sources}},
                                                           "demoCongestion": {"type": "boolean", "description": "invented weekly congestion on (serve --demo-congestion)"},
                                                           "importedProfileSegments": integer, "learnedSegments": integer,
                                                           "learnedObservedSlots": integer, "learnedSlots": integer, "minimumObservations": integer}},
                              "limits": {"type": "object", "description": "what one request may ask for (wayfinder serve --max-…)",
                                         "properties": {k: integer for k in ["maxWaypoints", "maxAlternatives", "maxDetourSeconds",
                                                                            "maxAlongRouteResults", "maxAlongRoutePoints", "maxSearchResults",
                                                                            "maxMatrixCells", "maxAsyncMatrixCells", "maxIsochroneMinutes", "maxTracePoints"]}},
                              "http": {"type": "object", "properties": {k: integer for k in ["maxBodyBytes", "maxURLBytes", "workers", "timeoutSeconds"]}},
                              "access": {"type": "object", "required": ["roles", "reading", "writing", "caps"],
                                         "description": "who may do what; never the keys",
                                         "properties": {"roles": {"type": "array", "items": {"type": "string", "enum": ["read", "write"]}},
                                                        "reading": {"type": "string", "enum": ["open", "api key"]},
                                                        "writing": {"type": "string", "enum": ["operator credential", "open on loopback", "disabled"]},
                                                        "caps": {"type": "object", "description": "quotas per key (429) and server-wide caps (503)",
                                                                 "properties": {k: integer for k in [
                                                                     "openWatches", "openWatchesPerKey", "eventStreams", "eventStreamsPerKey",
                                                                     "requestsPerMinute", "matrixCellsPerMinute", "matrixCellsPerMinutePerKey",
                                                                     "probePointsPerMinute", "probePointsPerMinutePerKey"]}}}}}},
}

latlon_path = {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"}
common_search = [q("lat", {"type": "number", "minimum": -90, "maximum": 90}, "bias latitude"),
                 q("lon", {"type": "number", "minimum": -180, "maximum": 180}, "bias longitude"),
                 q("radius", {"type": "integer", "minimum": 1, "maximum": 50000}, "with lat/lon: only within this many metres"),
                 q("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "results per page (default 10)"),
                 q("ofs", {"type": "integer", "minimum": 0, "maximum": 1900}, "page offset"),
                 q("categorySet", string, "comma-separated category ids (7315) or names (restaurant)"),
                 q("language", string, "result language")]
search_errors = {"400": json_response(ref("SearchError"), "bad input"), "404": json_response(ref("SearchError"), "no places index")}
write_errors = {"401": json_response(ref("RoutingError"), "no operator credential (Authorization: Bearer)"),
                "403": json_response(ref("RoutingError"), "the credential may not write, or writing is disabled on this server")}
route_errors = {"400": json_response(ref("RoutingError"), "bad input or no route (TomTom answers 400 for both)")}

route_params = [
    path_param("locations", "lat,lon:lat,lon[:…] (percent-encoded commas and colons accepted)",
               {"type": "string", "pattern": "^(-?[0-9.]+,-?[0-9.]+)(:(-?[0-9.]+,-?[0-9.]+|circle\\(-?[0-9.]+,-?[0-9.]+,[0-9.]+\\)))*:(-?[0-9.]+,-?[0-9.]+)$"},
               example="43.7384,7.4246:43.7290,7.4180"),
    path_param("contentType", "json", {"type": "string", "enum": ["json"]}, example="json"),
    q("travelMode", {"type": "string", "enum": ["car", "taxi", "bicycle", "pedestrian"]}, "travel mode (default car)"),
    q("routeType", {"type": "string", "enum": ["fastest", "shortest", "eco", "thrilling"]}, "route type (default fastest)"),
    q("departAt", {"type": "string", "format": "date-time"}, "leave at (RFC 3339); default now"),
    q("arriveAt", {"type": "string", "format": "date-time"}, "arrive by (RFC 3339): the latest departure"),
    q("traffic", {"type": "boolean"}, "use live traffic (default true)"),
    q("maxAlternatives", {"type": "integer", "minimum": 0, "maximum": 5}, "alternative routes", example=1),
    q("avoid", {"type": "array", "items": {"type": "string", "enum": ["tollRoads", "motorways", "ferries", "unpavedRoads", "alreadyUsedRoads"]}},
      "kinds of road to avoid (repeatable)", explode=True),
    q("computeBestOrder", {"type": "boolean"}, "reorder intermediate waypoints"),
    q("instructionsType", {"type": "string", "enum": ["coded", "text", "tagged"]}, "include guidance", example="text"),
    q("routeRepresentation", {"type": "string", "enum": ["polyline", "encodedPolyline", "summaryOnly", "none"]},
      "points as a list, as an encoded polyline (precision 7), or none", example="encodedPolyline"),
    q("computeTravelTimeFor", {"type": "string", "enum": ["none", "all"]}, "all: also the times without traffic, with history only and with live traffic", example="all"),
    q("report", {"type": "string", "enum": ["effectiveSettings"]}, "the parameters the route was planned with, defaults included"),
    q("sectionType", {"type": "array", "items": {"type": "string", "enum": ["travelMode", "toll", "tollRoad", "ferry", "motorway", "tunnel",
                                                                               "unpaved", "pedestrian", "traffic", "lanes"]}},
      "sections to report besides TRAVEL_MODE (repeatable); TomTom's others are a 400", explode=True, example=["traffic", "motorway", "tunnel"]),
    q("hilliness", {"type": "string", "enum": ["normal"]}, "only normal: the dataset has no elevation (low and high are a 400)"),
    q("windingness", {"type": "string", "enum": ["low", "normal", "high"]}, "with routeType=thrilling: how curvy"),
    q("callback", {"type": "string", "pattern": "^[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$"}, "JSONP function name (contentType jsonp)"),
    q("language", {"type": "string", "pattern": "^(en|de|fr|it|es|pt|nl|fi|sv|da|nb|no|nn|pl)([-_][A-Za-z]{2,4})?$"},
      "instruction language: English, German, French, Italian, Spanish, Portuguese, Dutch, Finnish, Swedish, Danish, "
      "Norwegian or Polish, any region (en-GB, de-AT, pt-BR, nb-NO, …); others are a 400 naming these", example="de-DE"),
    q("units", {"type": "string", "enum": ["metric", "imperial"]}, "distance units of the texts"),
    q("strictAvoid", {"type": "boolean"}, "never use the avoided kinds of road (TomTom's avoid is soft: used when nothing else reaches)"),
    q("vehicleHeading", {"type": "integer", "minimum": 0, "maximum": 359}, "heading of a moving origin"),
    q("vehicleMaxSpeed", {"type": "integer", "minimum": 0, "maximum": 250}, "km/h: the route is chosen and timed with no arc driven faster; 0: the roads' speeds"),
]
route_body = {"required": False, "content": {"application/json": {
    "schema": {"type": "object", "properties": {"supportingPoints": {"type": "array", "items": ref("LatLon")}}},
    "example": {"supportingPoints": [{"latitude": 43.7384, "longitude": 7.4246}, {"latitude": 43.7290, "longitude": 7.4180}]}}}}

reach_params = [
    path_param("origin", "lat,lon", {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"}, example="43.7384,7.4246"),
    path_param("contentType", "json", {"type": "string", "enum": ["json"]}, example="json"),
    q("timeBudgetInSec", {"type": "number", "exclusiveMinimum": 0}, "time budget (give exactly one budget)", example=300),
    q("distanceBudgetInMeters", {"type": "number", "exclusiveMinimum": 0}, "distance budget"),
    q("fuelBudgetInLiters", {"type": "number", "exclusiveMinimum": 0}, "fuel budget, by the built-in consumption model eco routes use"),
    q("travelMode", {"type": "string", "enum": ["car", "taxi", "bicycle", "pedestrian"]}, "travel mode (default car)"),
    q("routeType", {"type": "string", "enum": ["fastest", "shortest", "eco", "thrilling"]}, "which routes the range follows (default fastest)"),
    q("departAt", {"type": "string", "format": "date-time"}, "leave at (time budgets on fastest routes)"),
    q("arriveAt", {"type": "string", "format": "date-time"}, "arrive by: the reverse range (time budgets on fastest routes)"),
    q("traffic", {"type": "boolean"}, "use live traffic (default true)"),
    q("avoid", {"type": "array", "items": {"type": "string", "enum": ["tollRoads", "motorways", "ferries", "unpavedRoads"]}}, "kinds of road to avoid", explode=True),
]
matrix_body = {"required": True, "content": {"application/json": {"schema": ref("MatrixRequest"), "example": {
    "origins": [{"point": {"latitude": 43.7384, "longitude": 7.4246}}], "destinations": [{"point": {"latitude": 43.7290, "longitude": 7.4180}}],
    "options": {"departAt": "now", "traffic": "live"}}}}}

paths = {
    "/health": {"get": {"summary": "Service health: dataset version and bounds, uptime, traffic update age, limits", "responses": {"200": json_response(ref("Health"))}}},
    "/routing/1/calculateRoute/{locations}/{contentType}": {
        "get": {"summary": "TomTom Calculate Route", "parameters": route_params,
                "responses": {"200": json_response(ref("CalculateRouteResponse")), **route_errors}},
        "post": {"summary": "TomTom Calculate Route; the body's supportingPoints are driven in order, in the legs the locations make",
                 "parameters": route_params, "requestBody": route_body,
                 "responses": {"200": json_response(ref("CalculateRouteResponse")), **route_errors}},
    },
    "/search/2/search/{query}.json": {"get": {"summary": "Fuzzy search", "parameters": [
        path_param("query", "free text", {"type": "string", "minLength": 1, "maxLength": 100}, example="casino"),
        q("typeahead", {"type": "boolean"}, "last word is a prefix"),
        q("maxFuzzyLevel", {"type": "integer", "minimum": 1, "maximum": 4}, "typo tolerance"),
        *example(common_search, lat=43.7384, lon=7.4246)],
        "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/search/2/poiSearch/{query}.json": {"get": {"summary": "POI search", "parameters": [
        path_param("query", "a place's name or kind", {"type": "string", "minLength": 1, "maxLength": 100}, example="pharmacie"),
        q("typeahead", {"type": "boolean"}, "last word is a prefix"),
        q("maxFuzzyLevel", {"type": "integer", "minimum": 1, "maximum": 4}, "typo tolerance"), *common_search],
        "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/search/2/geocode/{query}.json": {"get": {"summary": "Geocode (addresses, streets, places)", "parameters": [
        path_param("query", "address text", {"type": "string", "minLength": 1, "maxLength": 100}, example="Boulevard des Moulins"),
        q("typeahead", {"type": "boolean"}, "last word is a prefix"), *common_search],
        "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/search/2/categorySearch/{query}.json": {"get": {"summary": "Category search", "parameters": [
        path_param("query", "a category name or id", {"type": "string", "enum": ["restaurant", "atm", "fuel", "cafe", "7315", "7397"]},
                   example="restaurant"),
        *example(common_search, lat=43.7384, lon=7.4246, radius=1000)], "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/search/2/nearbySearch/.json": {"get": {"summary": "Nearby search", "parameters": [
        q("lat", {"type": "number", "minimum": -90, "maximum": 90}, "latitude", required=True, example=43.7384),
        q("lon", {"type": "number", "minimum": -180, "maximum": 180}, "longitude", required=True, example=7.4246), *common_search[2:]],
        "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/search/2/reverseGeocode/{position}": {"get": {"summary": "Reverse geocode", "parameters": [
        path_param("position", "lat,lon.json", {"type": "string", "pattern": "^-?[0-9]{1,2}\\.[0-9]{1,6},-?[0-9]{1,3}\\.[0-9]{1,6}\\.json$"},
                   example="43.7384,7.4246.json"),
        q("radius", {"type": "integer", "minimum": 1, "maximum": 10000}, "search radius, metres"),
        q("number", {"type": "string", "minLength": 1, "maxLength": 20}, "a house number: its place on the nearest street"),
        q("entityType", string, "answer with the area: Country, CountrySubdivision, CountrySecondarySubdivision, Municipality, "
          "MunicipalitySubdivision, Neighbourhood, PostalCodeArea (comma-separated)"),
        q("roadUse", string, "only streets of these uses: LimitedAccess, Arterial, Terminal, Ramp, Rotary, LocalStreet (comma-separated)"),
        q("returnSpeedLimit", {"type": "boolean"}, "the street's speed limit in address.speedLimit"),
        q("returnRoadUse", {"type": "boolean"}, "the street's use in roadUse"),
        q("returnMatchType", {"type": "boolean"}, "AddressPoint, HouseNumberRange or Street"),
        q("language", string, "names in this language (IETF tag or a list)")],
        "responses": {"200": json_response(ref("ReverseGeocodeResponse")), **search_errors}}},
    "/search/2/poiCategories.json": {"get": {"summary": "POI categories", "responses": {"200": json_response(ref("POICategories"))}}},
    "/search/2/searchAlongRoute/{query}.json": {"post": {"summary": "Search along a route (exact detours)", "parameters": [
        path_param("query", "text or a category name", {"type": "string", "minLength": 1, "maxLength": 50}, example="restaurant"),
        q("maxDetourTime", {"type": "integer", "minimum": 1, "maximum": 3600}, "detour budget, seconds", required=True, example=600),
        q("limit", {"type": "integer", "minimum": 1, "maximum": 20}, "results"),
        q("categorySet", string, "categories"),
        q("sortBy", {"type": "string", "enum": ["detourTime", "detourDistance", "detourOffset"]}, "order"),
        q("detourOffset", {"type": "boolean"}, "include detourOffset"),
        q("spreadingMode", {"type": "string", "enum": ["auto"]}, "spread results along the route")],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["route"],
            "properties": {"route": {"type": "object", "required": ["points"], "properties": {
                "points": {"type": "array", "minItems": 2, "maxItems": 10000, "items": ref("Position")}}}}},
            "example": {"route": {"points": [{"lat": 43.7384, "lon": 7.4246}, {"lat": 43.7350, "lon": 7.4225},
                                             {"lat": 43.7290, "lon": 7.4180}]}}}}},
        "responses": {"200": json_response(ref("SearchResponse")), **search_errors}}},
    "/traffic/1/speeds": {"post": {"summary": "Live speeds (OSRM segment speed CSV)", "parameters": [
        q("expiresIn", {"type": "integer", "minimum": 1, "maximum": 604800}, "seconds until historical speeds return", example=60)],
        "requestBody": {"required": True, "content": {"text/csv": {"schema": {"type": "string"}, "example": "1,2,40\n"}}},
        "security": [{}, {"operator": []}],
        "responses": {"201": json_response(ref("TrafficApplyReport"), "applied"), "400": json_response(ref("RoutingError"), "bad CSV"), **write_errors}}},
    "/traffic/1/closures": {"post": {"summary": "Road closures (from,to CSV)", "parameters": [
        q("expiresIn", {"type": "integer", "minimum": 1, "maximum": 604800}, "seconds", example=60)],
        "requestBody": {"required": True, "content": {"text/csv": {"schema": {"type": "string"}, "example": "1,2\n"}}},
        "security": [{}, {"operator": []}],
        "responses": {"201": json_response(ref("TrafficApplyReport"), "applied"), "400": json_response(ref("RoutingError"), "bad CSV"), **write_errors}}},
    "/traffic/1/status": {"get": {"summary": "Live traffic in force", "responses": {"200": json_response({"type": "object", "required": ["updates", "modes"]})}}},
    "/route/v1/{profile}/{coordinates}": {"get": {"summary": "OSRM route", "parameters": [
        path_param("profile", "driving, cycling, walking", {"type": "string", "enum": ["driving", "car", "cycling", "bike", "walking", "foot"]},
                   example="driving"),
        path_param("coordinates", "lon,lat;lon,lat", {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+(;-?[0-9.]+,-?[0-9.]+)+$"},
                   example="7.4246,43.7384;7.4180,43.7290"),
        q("alternatives", {"type": "string", "enum": ["true", "false", "1", "2", "3"]}, "alternatives", example="true"),
        q("steps", {"type": "string", "enum": ["true", "false"]}, "steps", example="true"),
        q("overview", {"type": "string", "enum": ["simplified", "full", "false"]}, "overview"),
        q("geometries", {"type": "string", "enum": ["polyline", "polyline6", "geojson"]}, "geometry encoding", example="geojson"),
        q("continue_straight", {"type": "string", "enum": ["default", "true", "false"]},
          "keep going the way a route arrived at intermediate waypoints (default: true for cars, false otherwise)"),
        q("language", {"type": "string", "pattern": "^(en|de|fr|it|es|pt|nl|fi|sv|da|nb|no|nn|pl)([-_][A-Za-z]{2,4})?$"},
          "language of each step's maneuver.instruction (an addition to OSRM's API)", example="fr")],
        "responses": {"200": json_response(ref("OSRMRoute")), "400": json_response(ref("OSRMError"), "OSRM error code")}}},
    "/nearest/v1/{profile}/{coordinates}": {"get": {"summary": "OSRM nearest", "parameters": [
        path_param("profile", "profile", {"type": "string", "enum": ["driving", "walking"]}, example="walking"),
        path_param("coordinates", "lon,lat", {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+$"}, example="7.4246,43.7384"),
        q("number", {"type": "integer", "minimum": 1, "maximum": 100}, "how many", example=3)],
        "responses": {"200": json_response({"type": "object", "required": ["code", "waypoints"]}), "400": json_response(ref("OSRMError"), "error")}}},
    "/table/v1/{profile}/{coordinates}": {"get": {"summary": "OSRM table", "parameters": [
        path_param("profile", "profile", {"type": "string", "enum": ["driving", "walking"]}, example="driving"),
        path_param("coordinates", "lon,lat;…", {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+(;-?[0-9.]+,-?[0-9.]+){0,9}$"},
                   example="7.4246,43.7384;7.4180,43.7290;7.4225,43.7350"),
        q("annotations", {"type": "string", "enum": ["duration", "distance", "duration,distance"]}, "what to compute",
          example="duration,distance"),
        q("sources", string, "indices of the sources (;-separated) or all"),
        q("destinations", string, "indices of the destinations (;-separated) or all"),
        q("fallback_speed", {"type": "number", "exclusiveMinimum": 0}, "m/s: cells without a route get the straight-line distance at this speed"),
        q("fallback_coordinate", {"type": "string", "enum": ["input", "snapped"]}, "where the fallback's straight line starts"),
        q("scale_factor", {"type": "number", "exclusiveMinimum": 0}, "multiplies every duration")],
        "responses": {"200": json_response({"type": "object", "required": ["code", "sources", "destinations"]}), "400": json_response(ref("OSRMError"), "error")}}},
    "/routing/1/calculateReachableRange/{origin}/{contentType}": {
        method: {"summary": "TomTom Calculate Reachable Range: the area reachable within one budget (or, with arriveAt, from which the point is reached in time)",
                 "parameters": reach_params, "responses": {"200": json_response(ref("ReachableRange")), **route_errors}}
        for method in ["get", "post"]},
    "/isochrone": {
        "get": {"summary": "Valhalla isochrones: one GeoJSON Feature per contour (largest first), nested, with holes",
                "parameters": [q("json", string, "the request as JSON: locations, costing (auto, taxi, bicycle, pedestrian), contours [{time (min) | distance (km), color}], "
                                 "polygons, denoise, generalize, date_time {type 0-3, value}, reverse, show_locations", required=True,
                                 example=json.dumps({"locations": [{"lat": 43.7384, "lon": 7.4246}], "costing": "auto", "contours": [{"time": 3}], "polygons": True}))],
                "responses": {"200": json_response(ref("Isochrones")), "400": json_response(ref("ValhallaError"), "bad input")}},
        "post": {"summary": "Valhalla isochrones (the request as the body)",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object", "required": ["locations", "costing", "contours"]},
                     "example": {"locations": [{"lat": 43.7384, "lon": 7.4246}], "costing": "pedestrian", "contours": [{"distance": 0.5}], "polygons": True}}}},
                 "responses": {"200": json_response(ref("Isochrones")), "400": json_response(ref("ValhallaError"), "bad input")}}},
    "/routing/matrix/2": {"post": {"summary": "TomTom Matrix Routing v2 (synchronous, up to --max-matrix-cells; the cell count is in X-Matrix-Cells and charged to the matrix-cells quota, 429 beyond it)",
        "requestBody": matrix_body, "responses": {"200": json_response(ref("Matrix")), **route_errors}}},
    "/routing/matrix/2/async": {"post": {"summary": "Submit an asynchronous matrix (up to maxAsyncMatrixCells; its cells are charged to the matrix-cells quota)", "requestBody": matrix_body,
        "responses": {"202": json_response(ref("MatrixJob"), "accepted"), **route_errors}}},
    "/routing/matrix/2/async/{jobId}": {"get": {"summary": "An asynchronous matrix job's state", "parameters": [path_param("jobId", "job id")],
        "responses": {"200": json_response(ref("MatrixJob")), "404": json_response(ref("RoutingError"), "no such job")}}},
    "/routing/matrix/2/async/{jobId}/result": {"get": {"summary": "An asynchronous matrix job's result (202 with the state until it is done)",
        "parameters": [path_param("jobId", "job id")],
        "responses": {"200": json_response(ref("Matrix")), "202": json_response(ref("MatrixJob"), "not done yet"),
                      "400": json_response(ref("RoutingError"), "the job failed"), "404": json_response(ref("RoutingError"), "no such job")}}},
    "/search": {"get": {"summary": "Nominatim search (free text, structured, or as you type with autocomplete=1)", "parameters": [
        q("q", {"type": "string", "minLength": 1, "maxLength": 100}, "free text (not with the structured fields)", example="Boulevard des Moulins"),
        *[q(f, {"type": "string", "maxLength": 100}, f"structured search: {f}") for f in
          ["amenity", "street", "city", "county", "state", "country", "postalcode"]],
        q("format", {"type": "string", "enum": ["json", "jsonv2", "geojson"]}, "format", example="json"),
        q("limit", {"type": "integer", "minimum": 1, "maximum": 40}, "results", example=5),
        q("autocomplete", flag01, "the last word is the start of a word (typeahead)"),
        q("addressdetails", flag01, "the address broken into parts"),
        q("namedetails", flag01, "every name of the place"),
        q("extratags", flag01, "tags beyond names and address"),
        q("countrycodes", {"type": "string", "pattern": "^[A-Za-z]{2}(,[A-Za-z]{2})*$"}, "only these countries (ISO 3166-1 alpha-2)"),
        q("viewbox", {"type": "string"}, "lon1,lat1,lon2,lat2: results inside rank first (only inside with bounded=1)"),
        q("bounded", flag01, "only results inside viewbox"),
        q("layer", {"type": "string"}, "address, poi, railway, natural, manmade (comma-separated)"),
        q("featureType", {"type": "string", "enum": ["country", "state", "city", "settlement"]}, "only settlements of this kind"),
        q("exclude_place_ids", {"type": "string", "pattern": "^[0-9]+(,[0-9]+)*$"}, "leave these place_ids out"),
        q("accept-language", string, "names in these languages (an Accept-Language list)"),
        q("dedupe", flag01, "accepted; results are always one per place"),
        q("email", string, "accepted; a contact address for the operator")],
        "responses": {"200": json_response({"oneOf": [{"type": "array"}, {"type": "object"}]}), "400": json_response(ref("NominatimError"), "bad input")}}},
    "/reverse": {"get": {"summary": "Nominatim reverse", "parameters": [
        q("lat", {"type": "number", "minimum": -90, "maximum": 90}, "latitude", required=True, example=43.7384),
        q("lon", {"type": "number", "minimum": -180, "maximum": 180}, "longitude", required=True, example=7.4246),
        q("format", {"type": "string", "enum": ["json", "jsonv2", "geojson"]}, "format", required=True, example="jsonv2"),
        q("zoom", {"type": "integer", "minimum": 0, "maximum": 18}, "detail: 18 a house, 17 a street, 10 a city, 3 a country"),
        q("layer", {"type": "string"}, "address, poi, railway, natural, manmade (comma-separated)"),
        q("addressdetails", flag01, "the address broken into parts (default 1)"),
        q("namedetails", flag01, "every name of the place"),
        q("extratags", flag01, "tags beyond names and address"),
        q("accept-language", string, "names in these languages (an Accept-Language list)")],
        "responses": {"200": json_response({"type": "object"}), "400": json_response(ref("NominatimError"), "bad input")}}},
    "/api": {"get": {"summary": "Photon search as you type", "parameters": [
        q("q", {"type": "string", "minLength": 1, "maxLength": 100}, "the text typed so far", required=True, example="Boulevard des Mou"),
        q("lat", {"type": "number", "minimum": -90, "maximum": 90}, "bias latitude", example=43.7384),
        q("lon", {"type": "number", "minimum": -180, "maximum": 180}, "bias longitude", example=7.4246),
        q("location_bias_scale", {"type": "number", "minimum": 0, "maximum": 1}, "0 distance only … 1 importance only (default 0.2)"),
        q("zoom", {"type": "integer", "minimum": 0, "maximum": 18}, "the bias's reach: half weight at 250 m × 2^(18 − zoom)"),
        q("limit", {"type": "integer", "minimum": 1, "maximum": 50}, "results (default 15)"),
        q("lang", string, "names in this language"),
        q("bbox", string, "minLon,minLat,maxLon,maxLat: only results inside"),
        q("osm_tag", string, "key, key:value, :value, !key, !key:value or key:!value (repeatable)"),
        q("layer", {"type": "string", "enum": ["house", "street", "locality", "district", "city", "county", "state", "country", "other"]},
          "only this type (repeatable)"),
        q("dedupe", flag01, "accepted; results are always one per place")],
        "responses": {"200": json_response({"type": "object", "required": ["type", "features"]}),
                      "400": json_response({"type": "object", "required": ["message"]}, "bad input")}}},
    "/timetoleave/1/watches": {
        "post": {"summary": "Watch a trip until it is time to leave (re-planned with live traffic)",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": ref("WatchRequest"),
                     "example": {"origin": {"lat": 43.7384, "lon": 7.4246}, "destination": {"lat": 43.7290, "lon": 7.4180},
                                 "arriveAt": "23:59", "travelMode": "car"}}}},
                 "responses": {"201": json_response(ref("Watch"), "watching"),
                               "400": json_response(ref("RoutingError"), "bad input, no road, or no route arrives in time"),
                               "503": json_response(ref("RoutingError"), "too many watches, or the watch could not be saved")}},
        "get": {"summary": "Every watch", "responses": {"200": json_response({"type": "object", "required": ["watches"],
                "properties": {"watches": {"type": "array", "items": ref("Watch")}}})}}},
    "/timetoleave/1/watches/{id}": {
        "get": {"summary": "One watch", "parameters": [path_param("id", "watch id")],
                "responses": {"200": json_response(ref("Watch")), "404": json_response(ref("RoutingError"), "no such watch")}},
        "delete": {"summary": "Stop watching", "parameters": [path_param("id", "watch id")],
                   "responses": {"204": {"description": "deleted"}, "404": json_response(ref("RoutingError"), "no such watch")}}},
    "/timetoleave/1/watches/{id}/accept": {"post": {"summary": "Take the better route offered", "parameters": [path_param("id", "watch id")],
        "responses": {"200": json_response(ref("Watch")), "400": json_response(ref("RoutingError"), "no better route on offer"),
                      "404": json_response(ref("RoutingError"), "no such watch"),
                      "503": json_response(ref("RoutingError"), "the watch could not be saved")}}},
    "/timetoleave/1/watches/{id}/events": {"get": {"summary": "Server-Sent Events: plan, traffic-change, no-change, time-to-leave, late, expired",
        "parameters": [path_param("id", "watch id"),
                       {"name": "Last-Event-ID", "in": "header", "required": False, "description": "resume after this event",
                        "schema": {"type": "string", "pattern": "^[0-9]{1,9}$"}}],
        "responses": {"200": {"description": "an event stream", "content": {"text/event-stream": {"schema": {
                          "type": "object", "required": ["event", "data", "id"],
                          "properties": {"event": {"type": "string", "enum": ["plan", "traffic-change", "no-change", "time-to-leave",
                                                                              "late", "expired"]},
                                         "data": {**string, "description": "the watch as JSON, with the event in its `event` field"},
                                         "id": {"type": "string", "pattern": "^[0-9]+$"}, "retry": integer}}}}},
                      "400": json_response(ref("RoutingError"), "bad Last-Event-ID"),
                      "404": json_response(ref("RoutingError"), "no such watch")}}},
    "/tiles/{z}/{x}/{y}.png": {"get": {"summary": "Base map tile", "parameters": [
        path_param("z", "zoom", {"type": "integer", "minimum": 0, "maximum": 20}, example=14),
        path_param("x", "column", {"type": "integer", "minimum": 0}, example=8529),
        path_param("y", "row", {"type": "integer", "minimum": 0}, example=5974)],
        "responses": {"200": {"description": "PNG", "content": {"image/png": {}}}, "304": {"description": "not modified"},
                      "404": json_response(ref("RoutingError"), "no such tile")}}},
}

# Map matching and probe traffic.
schemas["OSRMMatch"] = {"type": "object", "required": ["code", "matchings", "tracepoints"], "properties": {
    "code": {"const": "Ok"},
    "matchings": {"type": "array", "items": {"type": "object", "required": ["confidence", "legs", "distance", "duration", "weight"], "properties": {
        "confidence": num, "distance": num, "duration": num, "weight": num, "weight_name": string,
        "legs": {"type": "array", "items": {"type": "object"}}}}},
    "tracepoints": {"type": "array", "items": {"oneOf": [{"type": "null"}, {
        "type": "object", "required": ["location", "distance", "name", "matchings_index", "waypoint_index", "alternatives_count"],
        "properties": {"location": {"type": "array", "items": num}, "distance": num, "name": string, "matchings_index": integer,
                       "waypoint_index": integer, "alternatives_count": integer}}]}}}}
schemas["ProbeReport"] = {"type": "object", "required": ["vehicles", "points", "matchedPoints", "dropped", "traversals", "speeds"], "properties": {
    "vehicles": integer, "points": integer, "matchedPoints": integer, "traversals": integer,
    "dropped": {"type": "object", "description": "positions not used, by reason: olderThanLastSeen, rateLimited, tooManyVehicles, unmatched"},
    "speeds": {"type": "array", "items": {"type": "object", "required": ["from", "to", "speedKmh", "vehicles"],
                                          "properties": {"from": integer, "to": integer, "speedKmh": num, "vehicles": integer}}},
    "update": string, "expiresAt": string}}
match_profile = path_param("profile", "driving, cycling, walking", {"type": "string", "enum": ["driving", "car", "cycling", "bike", "walking", "foot"]},
                           example="driving")
match_options = [
    q("gaps", {"type": "string", "enum": ["split", "ignore"]}, "split the trace at time gaps, or ignore them"),
    q("tidy", {"type": "string", "enum": ["true", "false"]}, "leave out fixes very close to the previous one"),
    q("steps", {"type": "string", "enum": ["true", "false"]}, "steps"),
    q("overview", {"type": "string", "enum": ["simplified", "full", "false"]}, "overview"),
    q("geometries", {"type": "string", "enum": ["polyline", "polyline6", "geojson"]}, "geometry encoding", example="geojson"),
    q("annotations", {"type": "string"}, "per-segment annotations", example="nodes,distance")]
match_responses = {"200": json_response(ref("OSRMMatch")),
                   "400": json_response(ref("OSRMError"), "OSRM error code (InvalidValue, InvalidQuery, NoMatch, TooBig)")}
trace_bodies = {"application/gpx+xml": {"schema": string}, "application/geo+json": {"schema": string}}
paths["/match/v1/{profile}/{coordinates}"] = {"get": {"summary": "OSRM map matching", "parameters": [
    match_profile,
    path_param("coordinates", "lon,lat;lon,lat;… (at least two fixes)", {"type": "string", "pattern": "^-?[0-9.]+,-?[0-9.]+(;-?[0-9.]+,-?[0-9.]+)+$"},
               example="7.4246,43.7384;7.4225,43.7350"),
    q("timestamps", {"type": "string", "pattern": "^[0-9]+(;[0-9]+)*$"}, "UNIX seconds per coordinate, not decreasing", example="1796000400;1796000460"),
    q("radiuses", string, "GPS accuracy (metres, σ) per coordinate, at most 50; empty for the default", example="10;10")] + match_options,
    "responses": match_responses}}
paths["/match/v1/{profile}"] = {"post": {"summary": "OSRM map matching of a long trace in the body (one track)",
    "parameters": [match_profile] + match_options,
    "requestBody": {"required": True, "content": {**trace_bodies, "text/csv": {"schema": string,
        "example": "time,lat,lon\n1796000400,43.7384,7.4246\n1796000460,43.7350,7.4225\n"}}},
    "responses": match_responses}}
paths["/traffic/1/probes"] = {"post": {"summary": "Probe positions per vehicle, matched on arrival; segment speeds from enough vehicles go live",
    "parameters": [q("expiresIn", {"type": "integer", "minimum": 1, "maximum": 604800}, "seconds until the probe speeds stop counting", example=900)],
    "requestBody": {"required": True, "content": {**trace_bodies, "text/csv": {"schema": string,
        "example": "vehicle,time,lat,lon\nv1,1796000400,43.7384,7.4246\nv1,1796000460,43.7350,7.4225\n"}}},
    "responses": {"202": json_response(ref("ProbeReport"), "taken"),
                  "400": json_response(ref("RoutingError"), "bad upload (no vehicle id, no times, decreasing times, bad expiresIn)"),
                  "413": json_response(ref("RoutingError"), "more positions than maxTracePoints")}}}

doc = {"openapi": "3.1.0",
       "info": {"title": "Wayfinder", "version": "0.1.0",
                "description": "Routing with traffic, places and maps on OpenStreetMap data. Map data © OpenStreetMap contributors (ODbL)."},
       "paths": paths,
       "components": {"schemas": schemas, "securitySchemes": {
           "key": {"type": "apiKey", "in": "query", "name": "key",
                   "description": "only when the server runs with --api-keys FILE; 403 without a valid key, 429 (Retry-After) over its limit"},
           "header": {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "the same key as a header"},
           "operator": {"type": "http", "scheme": "bearer",
                        "description": "the operator credential (serve --operator-token-file, or a key marked operator): writing needs it "
                                       "unless the server listens on loopback without keys"}}},
       "security": [{}, {"key": []}, {"header": []}]}
out = os.path.join(os.path.dirname(__file__), "..", "Sources", "MapsServer", "Resources", "openapi.json")
with open(out, "w") as f:
    json.dump(doc, f, indent=1, sort_keys=True)
    f.write("\n")
print("wrote", os.path.normpath(out))
