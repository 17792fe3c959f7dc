import Foundation
import Dataset
import RoadNetwork

enum InfoCommand {
    static let usage = """
    USAGE: wayfinder info DATASET_DIR

    Prints what a dataset holds as JSON: source, time zone, bounding box, per-profile graph sizes,
    and two sample points per profile on its main road network (handy for scripts and smoke tests).
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: [])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        try a.checkAllUsed()
        let dataset: Dataset
        do { dataset = try Dataset(path: a.positional[0]) } catch let e as DatasetError {
            throw CommandFailure(e.description, exitCode: ExitCode.noInput)
        }
        var profiles: [String: Any] = [:]
        for (mode, graph) in dataset.graphs {
            var samples: [[Double]] = []
            // Arcs in the largest strongly connected component, spread over the arc list.
            for q in [0.3, 0.7] {
                var a = Int(Double(graph.arcCount) * q)
                while a < graph.arcCount && !graph.arcFlags[a].contains(.largestComponent) { a += 1 }
                guard a < graph.arcCount else { continue }
                let c = graph.nodeCoordinates[graph.tail(of: ArcID(a)).index]
                samples.append([c.latitude, c.longitude])
            }
            profiles[mode.rawValue] = ["nodes": graph.nodeCount, "edges": graph.edgeCount, "arcs": graph.arcCount,
                                       "turns": graph.turnCount, "samplePoints": samples]
        }
        let m = dataset.manifest
        let info: [String: Any] = ["id": m.id, "createdAt": m.createdAt, "source": m.source.name, "timeZone": m.timeZone,
                                   "timeZoneSource": m.timeZoneSource, "boundingBox": m.boundingBox, "profiles": profiles,
                                   "graphVerificationMs": (dataset.verificationMilliseconds * 100).rounded() / 100]
        let data = try JSONSerialization.data(withJSONObject: info, options: [.prettyPrinted, .sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
