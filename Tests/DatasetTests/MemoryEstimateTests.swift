import Testing
import MapsTestSupport
import OSMPBF
import RoadExtract
@testable import DatasetImport

/// The import's second memory estimate, once the roads are read: it follows the peaks measured on
/// the synthetic networks (which the estimate from blocks undercounts about threefold), and an
/// estimate past the limit refuses the import with a message that says why.
@Suite struct MemoryEstimateTests {
    static func estimate(profiles: [Profile] = Profile.all) throws -> MemoryEstimate {
        var options = DatasetImporter.Options(extractPath: DrawnTown.fixturePath, outputPath: "/nonexistent")
        options.profiles = profiles
        return try MemoryEstimate(reader: try PBFReader(path: DrawnTown.fixturePath), options: options)
    }

    static let megabyte = 1 << 20

    /// `wayfinder generate --nodes 1M` imported with `--threads 1` (bench/results/2026-12-03/memory-estimate.md):
    /// the memory held after reading the nodes, the roads' node references, the import's peak (VmHWM).
    @Test(arguments: [(4, 125, 1_334_659, 393), (1, 93, 1_334_659, 319)])
    func followsTheMeasuredPeak(profiles: Int, residentMB: Int, references: Int, measuredPeakMB: Int) throws {
        let e = try Self.estimate(profiles: Array(Profile.all.prefix(profiles)))
        let bytes = e.afterReading(residentBytes: residentMB * Self.megabyte, wayNodeReferences: references, profiles: profiles)
        let ratio = Double(bytes) / Double(measuredPeakMB * Self.megabyte)
        #expect(ratio > 0.95 && ratio < 1.1, "estimate \(bytes / Self.megabyte) MB against \(measuredPeakMB) MB measured")
    }

    @Test func growsWithTheRoadsAndTheProfiles() throws {
        let e = try Self.estimate()
        #expect(e.afterReading(residentBytes: 0, wayNodeReferences: 0, profiles: 4) == e.peakBytes)
        let car = e.afterReading(residentBytes: 0, wayNodeReferences: 10_000_000, profiles: 1)
        let all = e.afterReading(residentBytes: 0, wayNodeReferences: 10_000_000, profiles: 4)
        #expect(car > 1_500_000_000 && all > car)
        #expect(e.afterReading(residentBytes: 0, wayNodeReferences: 20_000_000, profiles: 1) > 2 * car - e.peakBytes)
    }

    @Test func anEstimatePastTheLimitRefusesTheImport() throws {
        #expect { try MemoryEstimate.checkAfterReading(3 << 30, limit: 2 << 30, wayNodeReferences: 13_000_000, extractPath: "x.osm.pbf") }
            throws: { error in
                guard case ImportError.notEnoughMemory(let message) = error else { return false }
                return message.contains("13000000 node references") && message.contains("3.0 GB")
                    && message.contains("stopped after reading the roads") && message.contains("nothing was changed")
            }
        try MemoryEstimate.checkAfterReading(3 << 30, limit: 0, wayNodeReferences: 13_000_000, extractPath: "x.osm.pbf")
        try MemoryEstimate.checkAfterReading(2 << 30, limit: 2 << 30, wayNodeReferences: 13_000_000, extractPath: "x.osm.pbf")
    }
}
