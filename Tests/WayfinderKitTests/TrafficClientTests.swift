import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import MapsTestSupport
import WayfinderKit

/// Live traffic uploads (operators) on a server of their own, so other suites' routes are unaffected.
@Suite("Live traffic against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .serialized, .timeLimit(.minutes(2)))
struct TrafficClientTests {
    let client: WayfinderClient
    let url: URL

    init() async throws {
        let server = try #require(await LoopbackMapsServer.shared(.traffic), "the Monaco server did not start")
        client = server.client
        url = server.url
    }

    @Test("slow speeds on a route make it slower and show in the status; closures are accepted")
    func uploadSpeedsAndClosures() async throws {
        let request = RouteRequest(from: Monaco.hermitage, to: Monaco.rocher)
        let before = try await client.calculateRoute(request).route
        let segments = try await roadSegments(of: before, server: url)
        #expect(segments.count > 10)
        let report = try await client.uploadTrafficSpeeds(segments.map { SegmentSpeed(from: $0.fromNodeID, to: $0.toNodeID, speedKmh: 3) },
                                                           expiresAfter: 600)
        #expect(report.kind == "speeds")
        #expect(report.entries == segments.count)
        #expect(report.matchedSegments > 0)
        // The counts cover every update in force on this server, this one included.
        #expect(report.matchedSegments + report.unmatchedSegments >= segments.count)
        let status = try await client.trafficStatus()
        #expect(status.updates.contains { $0.id == report.id })
        #expect((status.modes["car"]?.liveArcs ?? 0) > 0)
        let after = try await client.calculateRoute(request).route
        #expect(after.travelTimeSeconds > before.travelTimeSeconds || after.polyline != before.polyline)

        let closure = try await client.closeRoads([segments[0]], expiresAfter: 60)
        #expect(closure.kind == "closures" && closure.entries == 1)
        let unknown = try await client.uploadTrafficSpeeds(csv: "1,2,30\n", expiresAfter: 60)
        #expect(unknown.entries == 1)
        #expect(unknown.unmatchedSegments >= 1)
    }

    @Test func malformedUploadsAreInvalidQueries() async throws {
        await #expect(throws: WayfinderError.invalidQuery("speed 400.0 km/h from node 1 is not in 0...300", parameter: "body")) {
            try await client.uploadTrafficSpeeds([SegmentSpeed(from: 1, to: 2, speedKmh: 400)])
        }
        let error = await #expect(throws: WayfinderError.self) {
            try await client.uploadTrafficSpeeds(csv: "1,2,fast\n", expiresAfter: 60)
        }
        guard case .invalidQuery(let message, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(message.contains("line 1"))
    }
}
