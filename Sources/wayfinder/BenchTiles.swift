import Foundation
import BaseMap
import Dataset
import DatasetImport
import GeoCore
import Tiles

/// `wayfinder bench tiles`: how long a base map tile takes to render at each zoom, rendered
/// straight from the base map (no cache), over a square of tiles around the extract's centre.
enum BenchTiles {
    static func run(extract: String, tilesPerSide: Int) throws -> [String: Any] {
        let output = NSTemporaryDirectory() + "wayfinder-bench-tiles-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var options = DatasetImporter.Options(extractPath: extract, outputPath: output)
        options.profiles = [.car]
        options.skipPlaces = true
        let summary = try DatasetImporter(options: options).run()
        let dataset = try Dataset(path: output)
        guard let entry = dataset.manifest.files[BaseMap.fileName] else { throw UsageError("the import made no base map") }
        let renderer = TileRenderer(baseMap: try BaseMap(path: dataset.layout.root + "/" + entry.path))
        let box = dataset.manifest.boundingBox
        let center = Coordinate(latitude: (box[1] + box[3]) / 2, longitude: (box[0] + box[2]) / 2)
        var zooms: [String: Any] = [:]
        for zoom in 10...18 {
            let pixel = WebMercator.pixel(center, zoom: zoom)
            let cx = Int(pixel.x / 256), cy = Int(pixel.y / 256)
            var ms: [Double] = [], bytes: [Double] = []
            let half = tilesPerSide / 2
            for dy in -half...half {
                for dx in -half...half {
                    guard let tile = TileID(zoom: zoom, x: cx + dx, y: cy + dy) else { continue }
                    let start = DispatchTime.now().uptimeNanoseconds
                    let png = try renderer.renderPNG(tile)
                    ms.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    bytes.append(Double(png.count))
                }
            }
            zooms["z\(zoom)"] = ["tiles": ms.count, "renderMs": BenchCommand.percentiles(ms),
                                 "meanPngKB": BenchCommand.round3(bytes.reduce(0, +) / Double(max(1, bytes.count)) / 1024)]
        }
        let stage = summary.stages.first { $0.name == "base map" }?.seconds ?? 0
        return ["extract": (extract as NSString).lastPathComponent, "baseMapBuildSeconds": BenchCommand.round3(stage),
                "baseMapMB": BenchCommand.round3(Double(entry.bytes) / 1_048_576), "zooms": zooms]
    }
}
