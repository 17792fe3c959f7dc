import Testing
import BinaryIO
import MapsTestSupport
import OSMPBF
import RoadExtract
import RoadNetwork
import Routing

/// The free-flow weights customized at import and stored with the hierarchy: a metric uses them
/// only when its own turn weights are the ones they came from, and then answers exactly as a
/// customization (and Dijkstra) does.
@Suite struct StoredWeightsTests {
    @Test(arguments: [3, 4] as [UInt64])
    func storedWeightsServeOnlyTheirOwnMetric(seed: UInt64) throws {
        let block = RandomNetwork.block(seed: seed, width: 12, height: 10)
        let graph = try #require(try Extractor(profiles: [.car]).run(source: InMemoryOSMSource([block])).first).build()
        let metric = Metric.fastest(graph)
        var columns = ColumnSetBuilder()
        CCHStructure.build(graph: graph, order: NestedDissection.order(graph), into: &columns)
        let customized = CCHMetric(structure: try CCHStructure(store: columns.freeze(), mode: .car), turnWeight: metric.turnWeight)
        #expect(!customized.usesStoredWeights, "no stored weights yet: customized")
        StoredWeights.columns(customized, turnWeight: metric.turnWeight, into: &columns)
        let structure = try CCHStructure(store: columns.freeze(), mode: .car)
        #expect(structure.arcCount > 0)

        let stored = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        #expect(stored.usesStoredWeights)
        #expect((0..<structure.arcCount).allSatisfy { stored.upWeight($0) == customized.upWeight($0) && stored.downWeight($0) == customized.downWeight($0) })
        CCHOracleTests.compare(graph, metric: metric, cch: stored, seed: seed, queries: 40)

        // Any other weights are customized, and a metric that started on the stored ones gets its
        // own when it is re-customized (the stored ones are read-only).
        var other = metric.turnWeight
        other[Int(seed) % other.count] &+= 7_000
        let different = CCHMetric(structure: structure, turnWeight: other)
        #expect(!different.usesStoredWeights)
        stored.customize(turnWeight: other)
        #expect(!stored.usesStoredWeights)
        #expect((0..<structure.arcCount).allSatisfy { stored.upWeight($0) == different.upWeight($0) && stored.downWeight($0) == different.downWeight($0) })
        #expect(CCHMetric(structure: structure, turnWeight: metric.turnWeight).usesStoredWeights, "the stored weights are unchanged")

        // Partial customization of a metric on the stored weights starts from a copy of them.
        let partial = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        partial.customize(changed: [Int(seed) % other.count], turnWeight: other, graph: graph)
        #expect(!partial.usesStoredWeights)
        #expect((0..<structure.arcCount).allSatisfy { partial.upWeight($0) == different.upWeight($0) && partial.downWeight($0) == different.downWeight($0) })
        let again = CCHMetric(structure: structure, turnWeight: metric.turnWeight)
        #expect((0..<structure.arcCount).allSatisfy { again.upWeight($0) == customized.upWeight($0) && again.downWeight($0) == customized.downWeight($0) })
    }
}
