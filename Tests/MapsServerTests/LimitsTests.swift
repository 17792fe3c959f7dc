import Foundation
import Testing
import MapsAPI
import MapsTestSupport
import MapsService
import MapsServer
import HTTPServer
import Dataset

/// The server's limits are options: a server started with smaller ones refuses what exceeds them
/// with a 400 that names the parameter and the limit, and reports them in /health.
@Suite struct LimitsTests {
    static let router: Router? = {
        guard let app = ServerFixture.app else { return nil }
        var limits = ServiceLimits()
        limits.maxWaypoints = 3
        limits.maxAlternatives = 1
        limits.maxDetourSeconds = 300
        limits.maxSearchResults = 5
        guard let service = try? MapsService(dataset: app.service.dataset, clock: { ServerFixture.clock.now }, limits: limits) else { return nil }
        return MapsApplication(service: service).router()
    }()

    func get(_ target: String) throws -> HTTPResponse {
        try #require(Self.router).handle(try HTTPRequest(method: .get, target: target))
    }

    @Test func requestsBeyondTheLimitsAreRefused() throws {
        let four = "abcd".map { ServerFixture.at($0) }.joined(separator: ":")
        let tooMany = try get("/routing/1/calculateRoute/\(four)/json")
        #expect(tooMany.status.rawValue == 400)
        #expect(try ServerFixture.json(tooMany).description.contains("at most 3 locations"))
        #expect(try get("/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json?maxAlternatives=2").status.rawValue == 400)
        #expect(try get("/routing/1/calculateRoute/\(ServerFixture.at("a")):\(ServerFixture.at("l"))/json?maxAlternatives=1").status.rawValue == 200)
        #expect(try get("/search/2/search/kamppi.json?limit=6").status.rawValue == 400)
        #expect(try get("/search/2/search/kamppi.json?limit=5").status.rawValue == 200)
        let osrm = try get("/route/v1/driving/" + "abcd".map { ServerFixture.osrm($0) }.joined(separator: ";"))
        #expect(try ServerFixture.json(osrm)["code"] as? String == "TooBig")
    }

    @Test func healthReportsLimitsVersionAndBounds() throws {
        let health = try ServerFixture.json(try get("/health"))
        let limits = try #require(health["limits"] as? [String: Any])
        #expect(limits["maxWaypoints"] as? Int == 3)
        #expect(limits["maxDetourSeconds"] as? Int == 300)
        #expect((health["boundingBox"] as? [Double])?.count == 4)
        #expect(health["dataset"] as? String != nil && health["datasetCreatedAt"] as? String != nil)
    }
}
