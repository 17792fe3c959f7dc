import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import Dataset
import DatasetImport
import GeoCore
import MapsAPI

/// TomTom Calculate Route's parameters doing what TomTom's do, on the drawn town (`DrawnTown`)
/// served by an application of its own: the per-leg traffic test uploads live speeds, which must
/// not reach the other handler tests.
@Suite(.serialized) struct CalculateRouteParameterTests {
    static let router: Router? = {
        let dir = Fixtures.temporaryDirectory("wayfinder-route-parameters")
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = [.car]
        options.timeZone = "Europe/Helsinki"
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        guard let service = try? MapsService(dataset: dataset, clock: { ServerFixture.clock.now }) else { return nil }
        return MapsApplication(service: service).router()
    }()
    static let town = ServerFixture.town

    static func get(_ target: String) throws -> HTTPResponse {
        try #require(router).handle(try HTTPRequest(method: .get, target: target))
    }
    static func post(_ target: String, body: String) throws -> HTTPResponse {
        try #require(router).handle(try HTTPRequest(method: .post, target: target, body: Array(body.utf8)))
    }
    static func path(_ locations: [String], _ query: String = "") -> String {
        "/routing/1/calculateRoute/\(locations.joined(separator: ":"))/json" + (query.isEmpty ? "" : "?\(query)")
    }
    static func route(_ locations: [String], _ query: String = "") throws -> [String: Any] {
        let r = try get(path(locations, query))
        #expect(r.status == .ok, "\(locations) \(query): \(r.status)")
        return try #require((try ServerFixture.json(r)["routes"] as? [[String: Any]])?.first)
    }
    static func summary(_ route: [String: Any]) throws -> [String: Any] { try #require(route["summary"] as? [String: Any]) }
    static func legs(_ route: [String: Any]) throws -> [[String: Any]] { try #require(route["legs"] as? [[String: Any]]) }
    static func int(_ object: [String: Any], _ key: String) throws -> Int { try #require(object[key] as? Int, "\(key)") }
    static func failure(_ response: HTTPResponse) throws -> String? {
        #expect(response.status == .badRequest)
        return (try ServerFixture.json(response)["detailedError"] as? [String: Any])?["target"] as? String
    }
    static func at(_ c: Character) -> String { town.latLon(c) }

    @Test func encodedPolylineIsTheLegsPointsAtPrecisionSeven() throws {
        let plain = try Self.legs(try Self.route([Self.at("a"), Self.at("l")]))
        let encoded = try Self.legs(try Self.route([Self.at("a"), Self.at("l")], "routeRepresentation=encodedPolyline"))
        #expect(encoded.count == plain.count)
        for (p, e) in zip(plain, encoded) {
            #expect(e["points"] == nil)
            #expect(e["encodedPolylinePrecision"] as? Int == 7)
            let text = try #require(e["encodedPolyline"] as? String)
            let decoded = try #require(PolylineCodec.decode(text, precision: 7))
            let points = try #require(p["points"] as? [[String: Double]])
            #expect(decoded.count == points.count)
            for (d, q) in zip(decoded, points) {
                #expect(abs(d.latitude - q["latitude"]!) <= 0.6e-5 && abs(d.longitude - q["longitude"]!) <= 0.6e-5)
            }
        }
    }

    @Test func taggedMessagesMarkTheStreetAndTextOnesDoNot() throws {
        func messages(_ type: String) throws -> [String] {
            let guidance = try #require(try Self.route([Self.at("a"), Self.at("l")], "instructionsType=\(type)")["guidance"] as? [String: Any])
            return (guidance["instructions"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        }
        let tagged = try messages("tagged"), text = try messages("text")
        #expect(tagged.count == text.count && tagged.count >= 2)
        #expect(tagged.contains { $0.contains("<street>") })
        #expect(!text.contains { $0.contains("<") })
    }

    @Test func computeTravelTimeForAllAddsTheOtherTimes() throws {
        let plain = try Self.summary(try Self.route([Self.at("a"), Self.at("l")]))
        #expect(plain["noTrafficTravelTimeInSeconds"] == nil && plain["historicTrafficTravelTimeInSeconds"] == nil)
        let all = try Self.summary(try Self.route([Self.at("a"), Self.at("l")], "computeTravelTimeFor=all"))
        // No traffic posted and no speed profile: both times there are equal the route's own, and
        // with no profile there is no historical time to give.
        let time = try Self.int(all, "travelTimeInSeconds")
        #expect(try Self.int(all, "noTrafficTravelTimeInSeconds") == time)
        #expect(all["historicTrafficTravelTimeInSeconds"] == nil)
        #expect(try Self.int(all, "liveTrafficIncidentsTravelTimeInSeconds") == time)
        #expect(try Self.failure(try Self.get(Self.path([Self.at("a"), Self.at("l")], "computeTravelTimeFor=some"))) == "computeTravelTimeFor")
    }

    @Test func reportListsTheEffectiveSettings() throws {
        let r = try Self.get(Self.path([Self.at("a"), Self.at("l")], "report=effectiveSettings&maxAlternatives=1&avoid=motorways"))
        let body = try ServerFixture.json(r)
        let settings = try #require((body["report"] as? [String: Any])?["effectiveSettings"] as? [[String: String]])
        var values: [String: String] = [:]
        for s in settings { values[s["key"]!] = s["value"] }
        #expect(values["maxAlternatives"] == "1")
        #expect(values["avoid"] == "motorways")
        #expect(values["travelMode"] == "car" && values["routeType"] == "fastest" && values["traffic"] == "true")
        #expect(values["departAt"] == (body["routes"] as? [[String: Any]])?.first.flatMap { ($0["summary"] as? [String: Any])?["departureTime"] as? String })
        #expect(try Self.failure(try Self.get(Self.path([Self.at("a"), Self.at("l")], "report=everything"))) == "report")
        #expect(try ServerFixture.json(try Self.get(Self.path([Self.at("a"), Self.at("l")])))["report"] == nil)
    }

    @Test func jsonpCallbackIsAnIdentifierOnly() throws {
        let jsonp = "/routing/1/calculateRoute/\(Self.at("a")):\(Self.at("l"))/jsonp"
        for (callback, expected) in [("", "callback("), ("?callback=app.onRoute_1", "app.onRoute_1(")] {
            let r = try Self.get(jsonp + callback)
            #expect(r.status == .ok)
            #expect(r.headers["content-type"]?.hasPrefix("application/javascript") == true)
            guard case .bytes(let bytes) = r.body else { Issue.record("no body"); continue }
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(expected))
        }
        for hostile in ["alert(1)%2F%2F", "a%3Bb", "1abc", "a..b", "%3Cscript%3E"] {
            #expect(try Self.failure(try Self.get(jsonp + "?callback=" + hostile)) == "callback", "\(hostile)")
        }
    }

    @Test("refused, each by name", arguments: [
        ("hilliness=high", "hilliness"), ("vehicleWeight=3500", "vehicleWeight"), ("alternativeType=betterRoute", "alternativeType"),
        ("sectionType=carTrain", "sectionType"), ("routeRepresentation=geojson", "routeRepresentation"),
    ])
    func refused(query: String, parameter: String) throws {
        #expect(try Self.failure(try Self.get(Self.path([Self.at("a"), Self.at("l")], query))) == parameter)
    }

    @Test func hillinessNormalAndTomTomsSectionNamesAreAccepted() throws {
        _ = try Self.route([Self.at("a"), Self.at("l")], "hilliness=normal&sectionType=tollRoad&sectionType=travelMode&sectionType=motorway")
    }

    /// a → d along Mannerheimintie; g lies 200 m south of its c.
    @Test func aCirclePassedWithinItsRadiusChangesNothingAndAMissedOneIsDriven() throws {
        let direct = try Self.summary(try Self.route([Self.at("a"), Self.at("d")]))
        let g = Self.town.coordinate("g")
        let wide = try Self.route([Self.at("a"), "circle(\(g.latitude),\(g.longitude),250)", Self.at("d")])
        #expect(try Self.legs(wide).count == 1)
        #expect(try Self.int(try Self.summary(wide), "lengthInMeters") == (try Self.int(direct, "lengthInMeters")))
        let narrow = try Self.route([Self.at("a"), "circle(\(g.latitude),\(g.longitude),20)", Self.at("d")])
        #expect(try Self.legs(narrow).count == 1)
        let via = try Self.summary(try Self.route([Self.at("a"), Self.at("g"), Self.at("d")]))
        #expect(try Self.int(try Self.summary(narrow), "lengthInMeters") == (try Self.int(via, "lengthInMeters")))
        #expect(try Self.int(via, "lengthInMeters") > (try Self.int(direct, "lengthInMeters")) + 150)
        #expect(try Self.failure(try Self.get(Self.path(["circle(\(g.latitude),\(g.longitude),20)", Self.at("d")]))) == "locations")
        #expect(try Self.failure(try Self.get(Self.path([Self.at("a"), "circle(\(g.latitude),\(g.longitude))", Self.at("d")]))) == "locations")
    }

    @Test func supportingPointsAreFollowedInOneLeg() throws {
        let direct = try Self.summary(try Self.route([Self.at("a"), Self.at("d")]))
        let detour = "eefgh".map { c in "{\"latitude\":\(Self.town.coordinate(c).latitude),\"longitude\":\(Self.town.coordinate(c).longitude)}" }
        let r = try Self.post(Self.path([Self.at("a"), Self.at("d")]), body: "{\"supportingPoints\":[\(detour.joined(separator: ","))]}")
        #expect(r.status == .ok)
        let route = try #require((try ServerFixture.json(r)["routes"] as? [[String: Any]])?.first)
        #expect(try Self.legs(route).count == 1)
        let along = try Self.summary(try Self.route("aefghd".map { Self.at($0) }))
        #expect(abs(try Self.int(try Self.summary(route), "lengthInMeters") - (try Self.int(along, "lengthInMeters"))) <= 1)
        #expect(try Self.int(along, "lengthInMeters") > (try Self.int(direct, "lengthInMeters")) + 150)
        let areas = try Self.post(Self.path([Self.at("a"), Self.at("d")]), body: #"{"avoidAreas":{"rectangles":[]}}"#)
        #expect(try Self.failure(areas) == "avoidAreas")
    }

    @Test func vehicleMaxSpeedCapsEveryArc() throws {
        let free = try Self.summary(try Self.route([Self.at("a"), Self.at("l")]))
        let capped = try Self.summary(try Self.route([Self.at("a"), Self.at("l")], "vehicleMaxSpeed=20&computeTravelTimeFor=all"))
        let meters = Double(try Self.int(capped, "lengthInMeters"))
        #expect(try Self.int(capped, "lengthInMeters") == (try Self.int(free, "lengthInMeters")))
        #expect(Double(try Self.int(capped, "travelTimeInSeconds")) >= meters / (20 / 3.6) - 1)
        #expect(Double(try Self.int(capped, "noTrafficTravelTimeInSeconds")) >= meters / (20 / 3.6) - 1)
        let fast = try Self.summary(try Self.route([Self.at("a"), Self.at("l")], "vehicleMaxSpeed=250"))
        #expect(try Self.int(fast, "travelTimeInSeconds") == (try Self.int(free, "travelTimeInSeconds")))
    }

    /// Live speeds of 10 km/h on every road into c: a → b → c has its delay on the second leg,
    /// all of the route's (its time with live traffic minus its time on history alone).
    @Test func trafficDelayIsCountedLegByLeg() throws {
        let c = Self.town.osmID("c")
        let lines = "bgd".map { n in "\(Self.town.osmID(n)),\(c),10\n\(c),\(Self.town.osmID(n)),10\n" }.joined()
        let upload = try Self.post("/traffic/1/speeds?expiresIn=3600", body: lines)
        #expect(upload.status == .created)
        let live = try Self.route([Self.at("a"), Self.at("b"), Self.at("c")], "computeTravelTimeFor=all")
        let legs = try Self.legs(live).map { try Self.summary($0) }
        let summary = try Self.summary(live)
        #expect(legs.count == 2)
        #expect(try Self.int(legs[0], "trafficDelayInSeconds") == 0)
        let delay = try Self.int(summary, "trafficDelayInSeconds")
        // Without a speed profile the time without live traffic is free flow.
        #expect(summary["historicTrafficTravelTimeInSeconds"] == nil)
        let difference = try Self.int(summary, "travelTimeInSeconds") - (try Self.int(summary, "noTrafficTravelTimeInSeconds"))
        #expect(abs(delay - difference) <= 1, "each is rounded on its own")
        #expect(delay > 60)
        #expect(abs(try Self.int(legs[1], "trafficDelayInSeconds") - delay) <= 1)
        #expect(try Self.int(legs[1], "trafficLengthInMeters") > 0)
        #expect(try Self.int(legs[0], "trafficLengthInMeters") == 0)
    }
}

/// A places index the dataset lists but that cannot be opened stops the service from starting,
/// instead of serving as if the dataset had none.
@Suite struct PlacesIndexOpeningTests {
    @Test func aDamagedPlacesIndexIsAnErrorNotNoIndex() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-damaged-places")
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = [.car]
        _ = try DatasetImporter(options: options).run()
        let dataset = try Dataset(path: dir.path, verify: false)
        #expect((try MapsService(dataset: dataset)).places != nil)
        let entry = try #require(dataset.manifest.files["places.sqlite"])
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: dir.path + "/" + entry.path))
        #expect(throws: APIError.self) { _ = try MapsService(dataset: dataset) }
    }
}
