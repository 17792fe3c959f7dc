import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Dataset
import DatasetImport
import GeoCore
import Synchronization

/// The import's memory: every stage is measured, an import that cannot fit is refused before it
/// starts and leaves the previous dataset as it was, and a server makes a profile's engine only
/// when that profile is first asked for.
@Suite(.enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"))
struct ImportMemoryTests {
    static func importMonaco(_ dir: String, limit: MemoryLimit = .none) throws -> DatasetImporter.Summary {
        var options = DatasetImporter.Options(extractPath: Fixtures.monaco, outputPath: dir)
        options.profiles = [.car, .pedestrian]
        options.memoryLimit = limit
        return try DatasetImporter(options: options).run()
    }

    @Test func everyStageIsTimedAndMeasured() throws {
        let summary = try Self.importMonaco(Fixtures.temporaryDirectory("wayfinder-stages").path)
        let names = summary.stages.map(\.name)
        for stage in ["read ways", "read nodes", "car graph", "car hierarchy", "pedestrian graph", "pedestrian hierarchy",
                      "write graph", "base map", "places", "commit"] {
            #expect(names.contains(stage), "stage \(stage) in \(names)")
        }
        #expect(summary.stages.allSatisfy { $0.peakMemoryBytes > 0 && $0.seconds >= 0 })
        #expect(summary.stages.map(\.peakMemoryBytes).max()! <= summary.peakMemoryBytes)
        #expect(summary.estimatedPeakBytes > 0)
    }

    @Test func anImportThatCannotFitIsRefusedAndChangesNothing() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-refused").path
        let first = try Self.importMonaco(dir)
        let before = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect { try Self.importMonaco(dir, limit: .bytes(1 << 20)) } throws: { error in
            guard case ImportError.notEnoughMemory(let message) = error else { return false }
            return message.contains("needs at least") && message.contains("nothing was changed")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == before)
        #expect(try Dataset(path: dir).manifest.id == first.manifest.id)
    }

    /// A server starting leaves the graph file's check to the background: nothing reads the
    /// graphs at open, and each mode's first use waits for `graphsReady` with that mode, once,
    /// which checks that mode's columns only.
    @Test func routingWaitsForADeferredGraphCheck() throws {
        final class Calls: Sendable { let modes = Mutex<[String]>([]) }
        let dir = Fixtures.temporaryDirectory("wayfinder-deferred").path
        _ = try Self.importMonaco(dir)
        let dataset = try Dataset(path: dir, verify: false, deferGraphCheck: true)
        let calls = Calls()
        let service = try MapsService(dataset: dataset, graphsReady: { mode in
            calls.modes.withLock { $0.append(mode.rawValue) }
            try? dataset.checkGraph(for: mode)
        })
        #expect(service.planning.preparedModes.isEmpty)
        #expect(calls.modes.withLock { $0 }.isEmpty && !dataset.graphChecked)
        let box = dataset.manifest.boundingBox
        let a = Coordinate(latitude: box[1] + (box[3] - box[1]) * 0.4, longitude: box[0] + (box[2] - box[0]) * 0.4)
        let b = Coordinate(latitude: box[1] + (box[3] - box[1]) * 0.6, longitude: box[0] + (box[2] - box[0]) * 0.6)
        _ = try? service.calculateRoute(RouteQuery(waypoints: [a, b], mode: .pedestrian))
        #expect(calls.modes.withLock { $0 } == ["pedestrian"] && !dataset.graphChecked)
        #expect(service.planning.preparedModes == [.pedestrian])
        service.planning.warmUp()
        _ = try? service.calculateRoute(RouteQuery(waypoints: [a, b], mode: .car))
        _ = try? service.calculateRoute(RouteQuery(waypoints: [a, b], mode: .pedestrian))
        #expect(calls.modes.withLock { $0 } == ["pedestrian", "car"])
        #expect(service.planning.preparedModes == [.car, .pedestrian])
    }

    @Test func profilesOtherThanCarAreMadeOnFirstUse() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-lazy").path
        _ = try Self.importMonaco(dir)
        let service = try MapsService(dataset: try Dataset(path: dir))
        #expect(service.planning.preparedModes == [.car])
        let box = service.dataset.manifest.boundingBox
        let a = Coordinate(latitude: box[1] + (box[3] - box[1]) * 0.4, longitude: box[0] + (box[2] - box[0]) * 0.4)
        let b = Coordinate(latitude: box[1] + (box[3] - box[1]) * 0.6, longitude: box[0] + (box[2] - box[0]) * 0.6)
        _ = try? service.calculateRoute(RouteQuery(waypoints: [a, b], mode: .pedestrian))
        #expect(service.planning.preparedModes == [.car, .pedestrian])
    }
}
