import BaseMap
import Foundation
import GeoCore
import MapsTestSupport
import OSMPBF
import Testing
import Tiles

#if canImport(Glibc)
import Glibc
#endif

/// Base maps of the real samples, built once per test run into a temporary folder.
enum SampleBaseMaps {
    struct Built: Sendable {
        let map: BaseMap
        let statistics: BaseMapStatistics
    }

    static let monaco: Built? = build(Fixtures.monaco, available: Fixtures.monacoAvailable, name: "monaco")
    static let helsinki: Built? = build(Fixtures.helsinki, available: Fixtures.helsinkiAvailable, name: "helsinki")

    private static func build(_ path: String, available: Bool, name: String) -> Built? {
        guard available, let reader = try? PBFReader(path: path) else { return nil }
        let folder = Fixtures.temporaryDirectory("basemap-\(name)")
        let output = folder.appendingPathComponent(BaseMap.fileName).path
        guard let statistics = try? BaseMapBuilder().build(source: reader, outputPath: output),
              let map = try? BaseMap(path: output) else { return nil }
        return Built(map: map, statistics: statistics)
    }

    /// Where sample tiles are saved for people to look at.
    static var outputFolder: URL {
        let url = Fixtures.packageRoot.appendingPathComponent(".build-tiles/tile-samples")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func tile(containing c: Coordinate, zoom: Int) -> TileID {
        let p = WebMercator.pixel(c, zoom: zoom)
        return TileID(zoom: zoom, x: Int(p.x / 256), y: Int(p.y / 256))!
    }

    /// Renders the `size` × `size` tiles centred on `center` and saves them as one PNG.
    @discardableResult
    static func saveMosaic(_ renderer: TileRenderer, center: Coordinate, zoom: Int, size: Int, name: String) throws -> [TileRendering] {
        let middle = tile(containing: center, zoom: zoom)
        var rows: [[TileImage]] = []
        var all: [TileRendering] = []
        for dy in 0..<size {
            var row: [TileImage] = []
            for dx in 0..<size {
                guard let t = TileID(zoom: zoom, x: middle.x + dx - size / 2, y: middle.y + dy - size / 2) else { continue }
                let rendering = try renderer.renderDetailed(t)
                row.append(rendering.image)
                all.append(rendering)
            }
            rows.append(row)
        }
        if let mosaic = TileImage.mosaic(rows), let png = mosaic.pngBytes() {
            try Data(png).write(to: outputFolder.appendingPathComponent("\(name)-z\(zoom).png"))
        }
        return all
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

@Suite struct SampleTileTests {
    static let harbour = Coordinate(latitude: 43.7345, longitude: 7.4230)
    static let openSea = Coordinate(latitude: 43.7280, longitude: 7.4400)
    static let monteCarlo = Coordinate(latitude: 43.7395, longitude: 7.4265)
    static let helsinkiCentre = Coordinate(latitude: 60.1700, longitude: 24.9410)

    @Test(.enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"))
    func monacoHasSeaInTheHarbourAndOffshore() throws {
        let built = try #require(SampleBaseMaps.monaco)
        print("Monaco base map: \(built.statistics)")
        #expect(built.statistics.coastlineWays > 0)
        let renderer = TileRenderer(baseMap: built.map)
        let water = renderer.style.water
        for (place, zoom) in [(Self.harbour, 16), (Self.harbour, 15), (Self.openSea, 14), (Self.openSea, 13)] {
            let tile = SampleBaseMaps.tile(containing: place, zoom: zoom)
            let rendering = try renderer.renderDetailed(tile)
            let p = WebMercator.pixel(place, zoom: zoom)
            let x = Int(p.x) - tile.x * 256, y = Int(p.y) - tile.y * 256
            #expect(rendering.pixel(x, y, is: water), "z\(zoom) at \(place) is \(rendering.color(x, y)), not water")
            let waterPixels = rendering.image.pixels.filter { $0 == UInt32(water.red) << 16 | UInt32(water.green) << 8 | UInt32(water.blue) }.count
            #expect(waterPixels > 256 * 256 / 10, "z\(zoom): only \(waterPixels) water pixels")
        }
    }

    @Test(.enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"))
    func monacoSampleTiles() throws {
        let built = try #require(SampleBaseMaps.monaco)
        let renderer = TileRenderer(baseMap: built.map)
        for zoom in 11...18 {
            let renderings = try SampleBaseMaps.saveMosaic(renderer, center: Self.monteCarlo, zoom: zoom, size: 3, name: "monaco")
            #expect(renderings.allSatisfy { $0.png.starts(with: [0x89, 0x50, 0x4E, 0x47]) })
            if zoom >= 16 { #expect(renderings.contains { !$0.labels.isEmpty }, "no labels at z\(zoom)") }
        }
        try SampleBaseMaps.saveMosaic(renderer, center: Self.harbour, zoom: 16, size: 3, name: "monaco-harbour")
    }

    @Test(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
    func helsinkiSampleTiles() throws {
        let built = try #require(SampleBaseMaps.helsinki)
        print("Helsinki base map: \(built.statistics)")
        let renderer = TileRenderer(baseMap: built.map)
        for zoom in 12...18 {
            let renderings = try SampleBaseMaps.saveMosaic(renderer, center: Self.helsinkiCentre, zoom: zoom, size: 3, name: "helsinki")
            #expect(renderings.contains { $0.featureCount > 0 })
        }
    }
}
