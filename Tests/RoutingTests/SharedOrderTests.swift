import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing

/// An import dissects a road network once for the profiles that share it: a taxi graph equal to the
/// car's in what the order reads takes the car's order, and any other graph gets its own.
@Suite struct SharedOrderTests {
    @Test(arguments: [3, 4] as [UInt64])
    func onlyTheSameRoadNetworkSharesAnOrder(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 12, height: 10)
        let graphs = try Extractor(profiles: [.car, .taxi, .pedestrian]).run(source: InMemoryOSMSource([block])).map { $0.build() }
        let (car, taxi, pedestrian) = (graphs[0], graphs[1], graphs[2])
        #expect(NestedDissection.sameInput(car, taxi))
        #expect(NestedDissection.order(car) == NestedDissection.order(taxi), "equal input, equal order")
        #expect(!NestedDissection.sameInput(car, pedestrian), "walkers use both directions of one-ways: other arcs")
        let other = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([RandomNetwork.block(seed: seed + 10, width: 12, height: 10)])).first).build()
        #expect(!NestedDissection.sameInput(car, other))
    }
}
