import Foundation
import Testing
import MapsAPI
import MapsTestSupport
import MapsService
@testable import MapsServer
import HTTPServer

/// Applications over the drawn-town fixture with chosen access rules, each with its own watch
/// store, and the requests the access tests send.
enum AccessFixture {
    static let operatorToken = "op-7f3c9a1e5b2d4c8f"

    static func app(keys: APIKeys? = nil, token: String? = nil, loopback: Bool = true, caps: ServerCaps = ServerCaps()) throws -> MapsApplication {
        let base = try #require(ServerFixture.app)
        var options = MapsApplication.Options()
        options.access = AccessPolicy(keys: keys, operatorToken: token, loopbackOnly: loopback)
        options.caps = caps
        options.watchStateFolder = Fixtures.temporaryDirectory("access-watches").path
        return MapsApplication(service: base.service, options: options)
    }

    static func send(_ handler: HTTPHandler, _ method: HTTPMethod, _ target: String, key: String? = nil, bearer: String? = nil,
                     body: String = "", lastEventID: String? = nil) throws -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if let key { headers.add("X-API-Key", key) }
        if let bearer { headers.add("Authorization", "Bearer " + bearer) }
        if let lastEventID { headers.add("Last-Event-ID", lastEventID) }
        return handler(try HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)))
    }

    /// Every write endpoint, each with a body it refuses as malformed: an operator gets past the
    /// access check (400 or 404) without changing the fixture's traffic, which other tests share.
    static let writes: [(String, String)] = [("/traffic/1/speeds", "1,2,fast\n"), ("/traffic/1/closures", "1,x\n"),
                                             ("/traffic/1/probes", "not json"), ("/admin/reload", "")]

    /// A watch from a to l arriving two hours after the fixture's clock, as JSON.
    static var watchBody: String {
        let town = ServerFixture.town
        let from = town.coordinate("a"), to = town.coordinate("l")
        let request = WatchRequest(origin: PlaceInput(lat: from.latitude, lon: from.longitude),
                                   destination: PlaceInput(lat: to.latitude, lon: to.longitude),
                                   arriveAt: RFC3339.format(ServerFixture.clock.now.addingTimeInterval(7200), in: TimeZone(identifier: "Europe/Helsinki")!),
                                   travelMode: "car")
        return String(decoding: try! JSONEncoder().encode(request), as: UTF8.self)
    }

    static func watchID(_ response: HTTPResponse) throws -> String {
        try #require(try ServerFixture.json(response)["id"] as? String)
    }
}
