import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import Dataset
import DatasetImport

/// One Helsinki dataset and application for every handler test (imported once per test run).
enum ServerFixture {
    static let clock = TestClock(Date(timeIntervalSince1970: 1_796_000_400))  // Monday 03:00 Helsinki
    static let app: MapsApplication? = {
        guard Fixtures.helsinkiAvailable else { return nil }
        let dir = Fixtures.temporaryDirectory("wayfinder-server")
        var options = DatasetImporter.Options(extractPath: Fixtures.helsinki, outputPath: dir.path)
        options.profiles = [.car, .bicycle, .pedestrian]
        guard (try? DatasetImporter(options: options).run()) != nil, let dataset = try? Dataset(path: dir.path) else { return nil }
        return MapsApplication(service: MapsService(dataset: dataset, clock: { clock.now }))
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

    static func jsonArray(_ response: HTTPResponse) throws -> [Any] {
        guard case .bytes(let bytes) = response.body else { return [] }
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [Any])
    }
}
