import Foundation
import Testing
import MapsAPI
@testable import TimeToLeave

@Suite("Traffic replay files")
struct TrafficReplayTests {
    @Test func parsesRowsWithHeaderAndComments() throws {
        let replay = try TrafficReplay.parse("""
            offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh
            # the jam
            120,2,3,8.5
            30,1,2,10

            """, source: "demo.csv")
        #expect(replay.rows.map(\.offsetSeconds) == [30, 120])
        #expect(replay.rows[1] == TrafficReplay.Row(offsetSeconds: 120, from: 2, to: 3, speedKmh: 8.5))
        #expect(replay.durationSeconds == 120)
    }

    @Test(arguments: ["30,1,2", "x,1,2,10", "30,0,2,10", "30,1,2,400", "-1,1,2,10", ""])
    func refusesBadRows(_ text: String) {
        #expect(throws: TrafficReplayError.self) { try TrafficReplay.parse(text) }
    }

    @Test func placeInputsDecodeEveryShape() throws {
        func decode(_ json: String) throws -> PlaceInput { try JSONDecoder().decode(PlaceInput.self, from: Data(json.utf8)) }
        #expect(try decode(#"{"lat":60.1,"lon":24.9}"#) == PlaceInput(lat: 60.1, lon: 24.9))
        #expect(try decode(#"{"latitude":60.1,"longitude":24.9}"#) == PlaceInput(lat: 60.1, lon: 24.9))
        #expect(try decode(#"{"query":"Kamppi"}"#) == PlaceInput(query: "Kamppi"))
        #expect(try decode(#""Kamppi""#) == PlaceInput(query: "Kamppi"))
        #expect(try decode(#""60.1, 24.9""#) == PlaceInput(lat: 60.1, lon: 24.9))
    }
}
