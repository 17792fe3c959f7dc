import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import Dataset
import DatasetImport

/// One dataset and application for every handler test, imported once per test run from the
/// committed drawn-town fixture (`DrawnTown`), so the handlers are checked on a map whose every
/// street and place the tests know, and no downloaded sample is needed.
enum ServerFixture {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))  // Monday 03:00 Helsinki
    /// The drawing, for the coordinates of its letters.
    nonisolated(unsafe) static let town: Scenario = try! DrawnTown.scenario()
    static let app: MapsApplication? = {
        let dir = Fixtures.temporaryDirectory("wayfinder-server")
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: dir.path)
        options.profiles = [.car, .bicycle, .pedestrian]
        options.timeZone = "Europe/Helsinki"
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        guard let service = try? MapsService(dataset: dataset, clock: { clock.now }) else { return nil }
        return MapsApplication(service: service)
    }()
    static let router: Router? = app?.router()

    static func get(_ target: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        let router = try #require(Self.router)
        return router.handle(try HTTPRequest(method: .get, target: target, headers: headers))
    }

    static func post(_ target: String, body: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        let router = try #require(Self.router)
        return router.handle(try HTTPRequest(method: .post, target: target, headers: headers, body: Array(body.utf8)))
    }

    static func json(_ response: HTTPResponse) throws -> [String: Any] {
        guard case .bytes(let bytes) = response.body else { Issue.record("not a byte body"); return [:] }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// "lat,lon" of a drawn letter.
    static func at(_ c: Character) -> String { town.latLon(c) }
    /// "lon,lat" of a drawn letter (OSRM).
    static func osrm(_ c: Character) -> String { town.lonLat(c) }
    /// 5 km south of the town: no road near.
    static let sea = "59.95,24.0", seaOSRM = "24.0,59.95"

    static func jsonArray(_ response: HTTPResponse) throws -> [Any] {
        guard case .bytes(let bytes) = response.body else { return [] }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])
    }
}
