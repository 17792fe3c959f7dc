import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import Dataset
import DatasetImport

/// The Helsinki sample served through the production router, for the geocoding endpoints: real
/// buildings, POIs with their own addresses, other-language names and postcodes that a drawn town
/// does not have. Imported once per test run (car profile only: the places index is what these read).
enum HelsinkiServer {
    static let router: Router? = {
        guard Fixtures.helsinkiAvailable else { return nil }
        let dir = Fixtures.temporaryDirectory("wayfinder-helsinki-server")
        var options = DatasetImporter.Options(extractPath: Fixtures.helsinki, outputPath: dir.path)
        options.profiles = [.car]
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        guard let service = try? MapsService(dataset: dataset, clock: { ServerFixture.clock.now }) else { return nil }
        return MapsApplication(service: service).router()
    }()

    static func get(_ target: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse {
        let router = try #require(Self.router)
        return router.handle(try HTTPRequest(method: .get, target: target, headers: headers))
    }
}
