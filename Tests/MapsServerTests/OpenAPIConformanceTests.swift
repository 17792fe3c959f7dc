import Foundation
import Testing
import MapsTestSupport
import HTTPServer

/// Real responses of every documented endpoint checked against `/openapi.json` (a JSON-schema
/// subset: type, required, properties, items, enum, const, oneOf and $ref), so the document and
/// the server cannot drift apart.
@Suite struct OpenAPIConformanceTests {
    nonisolated(unsafe) static let document: [String: Any] = {
        (try? ServerFixture.json(ServerFixture.get("/openapi.json"))) ?? [:]
    }()

    /// The schema a `$ref` names; nil when the document has no such schema.
    static func resolve(_ schema: [String: Any]) -> [String: Any]? {
        guard let ref = schema["$ref"] as? String else { return schema }
        let name = String(ref.split(separator: "/").last ?? "")
        return ((document["components"] as? [String: Any])?["schemas"] as? [String: Any])?[name] as? [String: Any]
    }

    /// Problems found validating `value` against `schema`, as paths.
    static func validate(_ value: Any, _ rawSchema: [String: Any], at path: String = "$") -> [String] {
        guard let schema = resolve(rawSchema) else { return ["\(path): \(rawSchema["$ref"] ?? "") names no schema"] }
        var problems: [String] = []
        if let options = schema["oneOf"] as? [[String: Any]] {
            return options.contains { validate(value, $0, at: path).isEmpty } ? [] : ["\(path): matches no oneOf option"]
        }
        if let constant = schema["const"] as? String, value as? String != constant { problems.append("\(path): not \(constant)") }
        if let values = schema["enum"] as? [Any] {
            let text = "\(value)"
            if !values.contains(where: { "\($0)" == text }) { problems.append("\(path): \(text) not in enum") }
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return ["\(path): not an object"] }
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { problems.append("\(path).\(key): missing") }
            for (key, sub) in schema["properties"] as? [String: Any] ?? [:] {
                if let v = object[key], let s = sub as? [String: Any] { problems += validate(v, s, at: "\(path).\(key)") }
            }
        case "array":
            guard let array = value as? [Any] else { return ["\(path): not an array"] }
            if let items = schema["items"] as? [String: Any] {
                for (i, item) in array.enumerated() { problems += validate(item, items, at: "\(path)[\(i)]") }
            }
        case "string": if !(value is String) { problems.append("\(path): not a string") }
        case "integer": if !(value is Int) && !((value as? Double).map { $0 == $0.rounded() } ?? false) { problems.append("\(path): not an integer") }
        case "number": if !(value is Double) && !(value is Int) { problems.append("\(path): not a number") }
        case "boolean": if !(value is Bool) { problems.append("\(path): not a boolean") }
        case "null": if !(value is NSNull) { problems.append("\(path): not null") }
        default: break
        }
        return problems
    }

    static func schema(path: String, method: String, status: Int) -> [String: Any]? {
        let operation = ((document["paths"] as? [String: Any])?[path] as? [String: Any])?[method] as? [String: Any]
        let response = (operation?["responses"] as? [String: Any])?[String(status)] as? [String: Any]
        return ((response?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
    }

    @Test func aMissingReferenceIsAProblemNotAnything() {
        #expect(!Self.validate(["anything": 1], ["$ref": "#/components/schemas/NoSuchSchema"]).isEmpty)
        #expect(Self.validate(["latitude": 1.0, "longitude": 2.0], ["$ref": "#/components/schemas/LatLon"]).isEmpty)
        #expect(!Self.validate(["latitude": "north"], ["$ref": "#/components/schemas/LatLon"]).isEmpty)
    }

    @Test("responses match the document", arguments: [
        ("/health", "/health", "get", ""),
        ("/routing/1/calculateRoute/{locations}/{contentType}", "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json?instructionsType=text&maxAlternatives=1", "get", ""),
        ("/routing/1/calculateRoute/{locations}/{contentType}", "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json?routeType=wobbly", "get", ""),
        ("/routing/1/calculateRoute/{locations}/{contentType}", "/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json?routeRepresentation=encodedPolyline&report=effectiveSettings&computeTravelTimeFor=all&instructionsType=tagged&sectionType=traffic&sectionType=motorway&sectionType=tollRoad&sectionType=lanes&sectionType=pedestrian", "get", ""),
        ("/search/2/search/{query}.json", "/search/2/search/kauppatori.json?lat=\(ServerFixture.town.coordinate("K").latitude)&lon=\(ServerFixture.town.coordinate("K").longitude)", "get", ""),
        ("/search/2/search/{query}.json", "/search/2/search/kauppatori.json?limit=0", "get", ""),
        ("/search/2/geocode/{query}.json", "/search/2/geocode/mannerheimintie.json", "get", ""),
        ("/search/2/categorySearch/{query}.json", "/search/2/categorySearch/restaurant.json?lat=\(ServerFixture.town.coordinate("R").latitude)&lon=\(ServerFixture.town.coordinate("R").longitude)", "get", ""),
        ("/search/2/nearbySearch/.json", "/search/2/nearbySearch/.json?lat=\(ServerFixture.town.coordinate("R").latitude)&lon=\(ServerFixture.town.coordinate("R").longitude)", "get", ""),
        ("/search/2/reverseGeocode/{position}", "/search/2/reverseGeocode/\(ServerFixture.at("M")).json", "get", ""),
        ("/search/2/poiCategories.json", "/search/2/poiCategories.json", "get", ""),
        ("/search/2/searchAlongRoute/{query}.json", "/search/2/searchAlongRoute/cafe.json?maxDetourTime=300",
         "post", "{\"route\":{\"points\":[{\"lat\":\(ServerFixture.town.coordinate("a").latitude),\"lon\":\(ServerFixture.town.coordinate("a").longitude)},{\"lat\":\(ServerFixture.town.coordinate("d").latitude),\"lon\":\(ServerFixture.town.coordinate("d").longitude)}]}}"),
        ("/traffic/1/speeds", "/traffic/1/speeds?expiresIn=30", "post", "1,2,40\n"),
        ("/traffic/1/status", "/traffic/1/status", "get", ""),
        ("/traffic/1/probes", "/traffic/1/probes?expiresIn=60", "post", "vehicle,time,lat,lon\nconformance,1796000000,\(ServerFixture.at("a"))\nconformance,1796000010,\(ServerFixture.at("b"))\n"),
        ("/traffic/1/probes", "/traffic/1/probes", "post", "lat,lon\n60,24\n"),
        ("/match/v1/{profile}/{coordinates}", "/match/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("b"))?overview=full&geometries=geojson", "get", ""),
        ("/match/v1/{profile}/{coordinates}", "/match/v1/driving/\(ServerFixture.seaOSRM);\(ServerFixture.seaOSRM)", "get", ""),
        ("/match/v1/{profile}", "/match/v1/driving", "post", "lat,lon\n\(ServerFixture.at("a"))\n\(ServerFixture.at("b"))\n"),
        ("/route/v1/{profile}/{coordinates}", "/route/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))?steps=true", "get", ""),
        ("/route/v1/{profile}/{coordinates}", "/route/v1/driving/\(ServerFixture.seaOSRM);\(ServerFixture.osrm("l"))", "get", ""),
        ("/nearest/v1/{profile}/{coordinates}", "/nearest/v1/driving/\(ServerFixture.osrm("K"))", "get", ""),
        ("/table/v1/{profile}/{coordinates}", "/table/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))", "get", ""),
        ("/table/v1/{profile}/{coordinates}", "/table/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.seaOSRM)?fallback_speed=10&annotations=duration,distance", "get", ""),
        ("/routing/1/calculateReachableRange/{origin}/{contentType}", "/routing/1/calculateReachableRange/\(ServerFixture.at("f"))/json?timeBudgetInSec=300", "get", ""),
        ("/routing/1/calculateReachableRange/{origin}/{contentType}", "/routing/1/calculateReachableRange/\(ServerFixture.at("f"))/json?timeBudgetInSec=0", "get", ""),
        ("/isochrone", "/isochrone?json=" + ServerFixture.isochroneJSON(at: "f", minutes: 3), "get", ""),
        ("/isochrone", "/isochrone", "post", ServerFixture.isochroneBody(at: "f", costing: "boat", minutes: 3)),
        ("/routing/matrix/2", "/routing/matrix/2", "post", ServerFixture.matrixBody(origins: "a", destinations: "lk")),
        ("/routing/matrix/2/async", "/routing/matrix/2/async", "post", ServerFixture.matrixBody(origins: "a", destinations: "l")),
        ("/search", "/search?q=kamppi&format=json", "get", ""),
        ("/reverse", "/reverse?lat=\(ServerFixture.town.coordinate("M").latitude)&lon=\(ServerFixture.town.coordinate("M").longitude)&format=jsonv2", "get", ""),
    ] as [(String, String, String, String)])
    func conforms(template: String, target: String, method: String, body: String) throws {
        let response = method == "post" ? try ServerFixture.post(target, body: body) : try ServerFixture.get(target)
        let schema = try #require(Self.schema(path: template, method: method, status: response.status.rawValue),
                                  "\(template) documents no \(response.status.rawValue) response")
        guard case .bytes(let bytes) = response.body else { Issue.record("no body"); return }
        let value = try JSONSerialization.jsonObject(with: Data(bytes))
        let problems = Self.validate(value, schema)
        #expect(problems.isEmpty, "\(target): \(problems.prefix(5))")
    }
}
