import Foundation
import Testing
import MapsTestSupport
import HTTPServer
import MapsAPI
import GeoCore

/// The HTTP API as clients see it, called without a socket (Hummingbird's `app.test(.router)` idea).
/// On the drawn town (`DrawnTown`): a (Mannerheimintie, west end) to l (Esplanadi, east end).
@Suite struct HandlerTests {
    static let route = "/routing/1/calculateRoute/\(ServerFixture.at("a").replacingOccurrences(of: ",", with: "%2C"))%3A\(ServerFixture.at("l").replacingOccurrences(of: ",", with: "%2C"))/json"

    @Test func calculateRouteAnswersInTomTomsShape() throws {
        let r = try ServerFixture.get(Self.route + "?instructionsType=text&key=anything")
        #expect(r.status == .ok)
        #expect(r.headers["content-type"]?.hasPrefix("application/json") == true)
        let body = try ServerFixture.json(r)
        #expect(body["formatVersion"] as? String == "0.0.12")
        let route = try #require((body["routes"] as? [[String: Any]])?.first)
        let summary = try #require(route["summary"] as? [String: Any])
        for key in ["lengthInMeters", "travelTimeInSeconds", "trafficDelayInSeconds", "departureTime", "arrivalTime"] {
            #expect(summary[key] != nil, "summary.\(key)")
        }
        #expect((summary["departureTime"] as? String)?.hasSuffix("+02:00") == true)
        let points = try #require(((route["legs"] as? [[String: Any]])?.first?["points"] as? [[String: Double]]))
        #expect(points.count > 2)
        #expect(points[0]["latitude"] != nil && points[0]["longitude"] != nil)
        let guidance = try #require(route["guidance"] as? [String: Any])
        #expect(((guidance["instructions"] as? [Any])?.count ?? 0) >= 2)
    }

    @Test func postWithABodyWorksToo() throws {
        let r = try ServerFixture.post(Self.route, body: #"{"supportingPoints":[]}"#)
        #expect(r.status == .ok)
        let bad = try ServerFixture.post(Self.route, body: "{not json")
        #expect(bad.status == .badRequest)
    }

    @Test("bad input is a 400 that names the parameter", arguments: [
        ("/routing/1/calculateRoute/91,24.9:\(ServerFixture.at("l"))/json", "locations"),
        ("/routing/1/calculateRoute/\(ServerFixture.at("a"))/json", "locations"),
        ("/routing/1/calculateRoute/abc/json", "locations"),
        (route + "?travelMode=spaceship", "travelMode"),
        (route + "?maxAlternatives=9", "maxAlternatives"),
        (route + "?avoid=volcanoes", "avoid"),
        (route + "?departAt=yesterday", "departAt"),
        (route + "?departAt=2026-12-01T08:00:00Z&arriveAt=2026-12-01T09:00:00Z", "arriveAt"),
        (route + "?vehicleMaxSpeed=251", "vehicleMaxSpeed"),
        (route + "?traffic=maybe", "traffic"),
        ("/routing/1/calculateRoute/60.1,24.9:60.2,24.95/xml", "contentType"),
    ] as [(String, String)])
    func badInput(target: String, parameter: String) throws {
        let r = try ServerFixture.get(target)
        #expect(r.status == .badRequest)
        let body = try ServerFixture.json(r)
        let detail = try #require(body["detailedError"] as? [String: Any])
        #expect(detail["code"] as? String == "BAD_INPUT")
        #expect(detail["target"] as? String == parameter)
        #expect((body["error"] as? [String: Any])?["description"] != nil)
    }

    @Test func pointsAtSeaAreAMapMatchingFailureNotACrash() throws {
        let r = try ServerFixture.get("/routing/1/calculateRoute/\(ServerFixture.sea):\(ServerFixture.at("l"))/json")
        #expect(r.status == .badRequest)
        let detail = try #require(try ServerFixture.json(r)["detailedError"] as? [String: Any])
        #expect(detail["code"] as? String == "MAP_MATCHING_FAILURE")
        #expect((detail["message"] as? String)?.contains("not near any road") == true)
    }

    @Test func unknownPathsAre404AndWrongMethods405() throws {
        let r = try ServerFixture.get("/nope/1/x")
        #expect(r.status == .notFound)
        #expect(try ServerFixture.json(r)["detailedError"] != nil)
        let m = try ServerFixture.post("/health", body: "")
        #expect(m.status == .methodNotAllowed)
    }

    @Test func osrmRouteAndErrors() throws {
        let ok = try ServerFixture.get("/route/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))?steps=true&geometries=geojson&overview=full")
        #expect(ok.status == .ok)
        let body = try ServerFixture.json(ok)
        #expect(body["code"] as? String == "Ok")
        let route = try #require((body["routes"] as? [[String: Any]])?.first)
        #expect((route["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        let steps = try #require(((route["legs"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]]))
        #expect((steps.first?["maneuver"] as? [String: Any])?["type"] as? String == "depart")
        #expect((steps.last?["maneuver"] as? [String: Any])?["type"] as? String == "arrive")
        #expect((body["waypoints"] as? [Any])?.count == 2)
        let sea = try ServerFixture.get("/route/v1/driving/\(ServerFixture.seaOSRM);\(ServerFixture.osrm("l"))")
        #expect(sea.status == .badRequest)
        #expect(try ServerFixture.json(sea)["code"] as? String == "NoSegment")
        let bad = try ServerFixture.get("/route/v1/driving/garbage")
        #expect(try ServerFixture.json(bad)["code"] as? String == "InvalidQuery")
        let profile = try ServerFixture.get("/route/v1/hovercraft/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))")
        #expect(try ServerFixture.json(profile)["code"] as? String == "InvalidValue")
    }

    @Test func osrmNearestAndTable() throws {
        let nearest = try ServerFixture.get("/nearest/v1/driving/\(ServerFixture.osrm("K"))?number=3")
        let waypoints = try #require(try ServerFixture.json(nearest)["waypoints"] as? [[String: Any]])
        #expect(waypoints.count == 3)
        #expect((waypoints[0]["nodes"] as? [Int])?.count == 2)
        let table = try ServerFixture.get("/table/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"));\(ServerFixture.osrm("C"))?annotations=duration,distance")
        let body = try ServerFixture.json(table)
        let durations = try #require(body["durations"] as? [[Any]])
        #expect(durations.count == 3 && durations[0].count == 3)
        #expect(durations[0][0] as? Double == 0)
        // A cell is the route's duration between the two points.
        let route = try ServerFixture.json(try ServerFixture.get("/route/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))?overview=false"))
        let duration = try #require((route["routes"] as? [[String: Any]])?.first?["duration"] as? Double)
        let cell = try #require(durations[0][1] as? Double)
        #expect(duration > 60)
        #expect(abs(cell - duration) <= 0.1, "table \(cell) s, route \(duration) s")
    }

    @Test func searchReverseAndCategories() throws {
        let search = try ServerFixture.json(try ServerFixture.get("/search/2/search/stockman.json?typeahead=true&lat=\(ServerFixture.town.coordinate("S").latitude)&lon=\(ServerFixture.town.coordinate("S").longitude)"))
        let results = try #require(search["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        #expect((search["summary"] as? [String: Any])?["queryType"] as? String == "NEARBY")
        let reverse = try ServerFixture.json(try ServerFixture.get("/search/2/reverseGeocode/\(ServerFixture.at("M").replacingOccurrences(of: ",", with: "%2C")).json"))
        let address = try #require((reverse["addresses"] as? [[String: Any]])?.first)
        #expect(address["position"] is String)
        #expect((address["address"] as? [String: Any])?["streetName"] as? String == "Mannerheimintie")
        let empty = try ServerFixture.json(try ServerFixture.get("/search/2/reverseGeocode/\(ServerFixture.sea).json?radius=50"))
        #expect((empty["addresses"] as? [Any])?.isEmpty == true)
        let categories = try ServerFixture.json(try ServerFixture.get("/search/2/poiCategories.json"))
        #expect(((categories["poiCategories"] as? [Any])?.count ?? 0) > 15)
        let nearby = try ServerFixture.json(try ServerFixture.get("/search/2/nearbySearch/.json?lat=\(ServerFixture.town.coordinate("R").latitude)&lon=\(ServerFixture.town.coordinate("R").longitude)&categorySet=7315&radius=500"))
        let places = try #require(nearby["results"] as? [[String: Any]])
        #expect((places.first?["poi"] as? [String: Any])?["name"] as? String == "Ravintola Kappeli")
        #expect(places.allSatisfy { ($0["dist"] as? Double ?? 1e9) <= 500 })
        let bad = try ServerFixture.get("/search/2/search/x.json?lat=95&lon=24")
        #expect(bad.status == .badRequest)
        #expect(try ServerFixture.json(bad)["errorText"] != nil)
    }

    @Test func searchAlongRouteOverHTTP() throws {
        let a = ServerFixture.town.coordinate("a"), d = ServerFixture.town.coordinate("d")
        let body = #"{"route":{"points":[{"lat":\#(a.latitude),"lon":\#(a.longitude)},{"lat":\#(d.latitude),"lon":\#(d.longitude)}]}}"#
        let r = try ServerFixture.post("/search/2/searchAlongRoute/restaurant.json?maxDetourTime=300&limit=5&detourOffset=true", body: body)
        #expect(r.status == .ok)
        let results = try #require(try ServerFixture.json(r)["results"] as? [[String: Any]])
        #expect((results.first?["poi"] as? [String: Any])?["name"] as? String == "Ravintola Kappeli")
        for x in results {
            #expect((x["detourTime"] as? Int ?? 9999) <= 300)
            #expect(x["detourOffset"] != nil)
        }
        let year = try ServerFixture.post("/search/2/searchAlongRoute/atm.json?maxDetourTime=31536000", body: body)
        #expect(year.status == .badRequest)
        let noBody = try ServerFixture.post("/search/2/searchAlongRoute/atm.json?maxDetourTime=60", body: "")
        #expect(noBody.status == .badRequest)
    }

    @Test func nominatimShapes() throws {
        let json = try ServerFixture.jsonArray(try ServerFixture.get("/search?q=stockmann&format=json&limit=2"))
        let first = try #require(json.first as? [String: Any])
        #expect(first["lat"] is String && first["lon"] is String && first["display_name"] is String)
        #expect((first["boundingbox"] as? [String])?.count == 4)
        #expect(first["class"] != nil)
        let v2 = try ServerFixture.jsonArray(try ServerFixture.get("/search?q=stockmann&format=jsonv2"))
        #expect((v2.first as? [String: Any])?["category"] != nil)
        let geo = try ServerFixture.json(try ServerFixture.get("/search?q=stockmann&format=geojson"))
        #expect(geo["type"] as? String == "FeatureCollection")
        let miss = try ServerFixture.get("/reverse?lat=59.95&lon=24.0&format=json")
        #expect(miss.status == .ok)
        #expect(try ServerFixture.json(miss)["error"] as? String == "Unable to geocode")
        let bad = try ServerFixture.get("/reverse?lat=abc&lon=24&format=json")
        #expect(bad.status == .badRequest)
    }

    @Test func tilesHaveETagsAndRevalidate() throws {
        let (x, y) = WebMercator.pixel(ServerFixture.town.coordinate("g"), zoom: 15)
        let tile = "/tiles/15/\(Int(x / 256))/\(Int(y / 256)).png"
        let r = try ServerFixture.get(tile)
        #expect(r.status == .ok)
        #expect(r.headers["content-type"] == "image/png")
        let etag = try #require(r.headers["etag"])
        guard case .bytes(let png) = r.body else { Issue.record("no body"); return }
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let again = try ServerFixture.get(tile, headers: ["If-None-Match": etag])
        #expect(again.status == .notModified)
        #expect(try ServerFixture.get("/tiles/25/0/0.png").status == .notFound)
        #expect(try ServerFixture.get("/tiles/3/99/0.png").status == .notFound)
    }

    @Test func liveTrafficOverHTTP() throws {
        let bad = try ServerFixture.post("/traffic/1/speeds?expiresIn=60", body: "1,2,fast\n")
        #expect(bad.status == .badRequest)
        #expect(((try ServerFixture.json(bad)["detailedError"] as? [String: Any])?["message"] as? String)?.contains("line 1") == true)
        let ok = try ServerFixture.post("/traffic/1/speeds?expiresIn=60", body: "1,2,30\n")
        #expect(ok.status == .created)
        let status = try ServerFixture.json(try ServerFixture.get("/traffic/1/status"))
        #expect(((status["updates"] as? [Any])?.count ?? 0) >= 1)
    }

    @Test func healthAndOpenAPI() throws {
        let health = try ServerFixture.json(try ServerFixture.get("/health"))
        #expect(health["status"] as? String == "ok")
        let doc = try ServerFixture.json(try ServerFixture.get("/openapi.json"))
        #expect(doc["openapi"] as? String == "3.1.0")
        #expect(((doc["paths"] as? [String: Any])?.count ?? 0) >= 15)
    }
}

/// Instructions in the language asked for, through the HTTP API as clients call it.
@Suite(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
struct InstructionLanguageTests {
    static func messages(_ query: String) throws -> [String] {
        let r = try ServerFixture.get(HandlerTests.route + "?instructionsType=text&" + query)
        #expect(r.status == .ok)
        let route = try #require((try ServerFixture.json(r)["routes"] as? [[String: Any]])?.first)
        let instructions = try #require((route["guidance"] as? [String: Any])?["instructions"] as? [[String: Any]])
        return instructions.compactMap { $0["message"] as? String }
    }

    @Test("TomTom's language chooses the table", arguments: [
        ("de-DE", "Sie haben Ihr Ziel erreicht"), ("fr-FR", "Vous êtes arrivé"), ("fi", "Olet perillä"), ("sv-SE", "Du är framme"),
        ("pl-PL", "Jesteś na miejscu"), ("nb-NO", "Du er fremme"), ("en-US", "You have arrived"),
    ])
    func tomTomLanguage(language: String, arrival: String) throws {
        let messages = try Self.messages("language=" + language)
        #expect(messages.last?.hasPrefix(arrival) == true, "\(messages.last ?? "")")
    }

    @Test func anUnsupportedLanguageIsA400NamingTheSupportedOnes() throws {
        let r = try ServerFixture.get(HandlerTests.route + "?instructionsType=text&language=xx-YY")
        #expect(r.status == .badRequest)
        let body = try ServerFixture.json(r)
        let detail = try #require(body["detailedError"] as? [String: Any])
        #expect(detail["target"] as? String == "language")
        let message = detail["message"] as? String ?? ""
        for language in ["en", "de", "fr", "it", "es", "pt", "nl", "fi", "sv", "da", "nb", "pl"] {
            #expect(message.contains(language), "\(message)")
        }
        let osrm = try ServerFixture.get("/route/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))?steps=true&language=xx")
        #expect(osrm.status == .badRequest)
        #expect(try ServerFixture.json(osrm)["code"] as? String == "InvalidValue")
    }

    @Test func osrmStepsCarryTheirInstructionInTheLanguageAsked() throws {
        let r = try ServerFixture.get("/route/v1/driving/\(ServerFixture.osrm("a"));\(ServerFixture.osrm("l"))?steps=true&language=de")
        #expect(r.status == .ok)
        let legs = try #require((try ServerFixture.json(r)["routes"] as? [[String: Any]])?.first?["legs"] as? [[String: Any]])
        let steps = try #require(legs.first?["steps"] as? [[String: Any]])
        let texts = steps.compactMap { ($0["maneuver"] as? [String: Any])?["instruction"] as? String }
        #expect(texts.count == steps.count)
        #expect(texts.last?.hasPrefix("Sie haben Ihr Ziel erreicht") == true)
        #expect(texts.first?.hasPrefix("Fahren Sie Richtung") == true)
    }

    @Test func healthListsTheLanguagesAndTheDrivingSide() throws {
        let body = try ServerFixture.json(try ServerFixture.get("/health"))
        // The SDK chooses from MapsAPI's list: it is the server's.
        #expect(body["instructionLanguages"] as? [String] == InstructionLanguages.supported)
        #expect(body["drivingSide"] as? String == "RIGHT")
    }
}
