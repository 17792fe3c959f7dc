import BaseMap
import Foundation
import GeoCore
import MapsTestSupport
import OSMPBF
import Testing

@Suite struct BaseMapBuilderTests {
    let tile = TestMap.helsinkiTile

    func features(_ map: BaseMap, zoom: Int = 16) -> [BaseMapFeatureID] {
        var found: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(tile: tile), zoom: zoom, into: &found)
        return found
    }

    @Test func classifiesWaysIntoKinds() throws {
        var m = TestMap(tile: tile)
        m.rectangle(10, 10, 60, 60, ["natural": "water", "name": "Lammikko"])
        m.rectangle(70, 10, 120, 60, ["leisure": "park"])
        m.rectangle(130, 10, 140, 20, ["building": "yes"])
        m.way([(0, 100), (256, 100)], ["highway": "residential", "name": "Katu", "oneway": "yes", "bridge": "yes", "layer": "1"])
        m.way([(0, 150), (256, 150)], ["highway": "primary_link"])
        m.way([(0, 200), (256, 200)], ["railway": "tram"])
        m.way([(0, 220), (256, 220)], ["highway": "proposed"])
        m.rectangle(150, 150, 160, 160, ["highway": "residential"])  // a closed road is a line
        let map = try m.baseMap()
        let found = features(map)
        let kinds = Set(found.map(map.kind))
        #expect(kinds == [.water, .park, .building, .minorRoad, .primary, .tram])
        let road = try #require(found.first { map.kind($0) == .minorRoad && map.name($0) == "Katu" })
        #expect(map.flags(road).isSuperset(of: [.oneway, .bridge]))
        #expect(map.layer(road) == 1)
        let link = try #require(found.first { map.kind($0) == .primary })
        #expect(map.flags(link).contains(.link))
        #expect(map.name(try #require(found.first { map.kind($0) == .water })) == "Lammikko")
        #expect(found.filter { map.kind($0) == .minorRoad }.count == 2)
    }

    @Test func buildingsOnlyInTheStreetBand() throws {
        var m = TestMap(tile: tile)
        m.rectangle(130, 10, 140, 20, ["building": "yes"])
        let map = try m.baseMap()
        #expect(features(map, zoom: 16).count == 1)
        var low: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(tile: tile), zoom: 12, into: &low)
        #expect(low.isEmpty)
    }

    @Test func multipolygonRingsAreJoinedAndOriented() throws {
        var m = TestMap(tile: tile)
        // The outer ring in two open ways, one of them drawn backwards; the hole is a closed way.
        let north = m.way([(20, 20), (230, 20), (230, 230)], [:])
        let south = m.way([(20, 20), (20, 230), (230, 230)], [:])
        let hole = m.way([(100, 100), (150, 100), (150, 150), (100, 150)], [:], closed: true)
        m.relation([(.way, north, "outer"), (.way, south, "outer"), (.way, hole, "inner")], ["type": "multipolygon", "natural": "water"])
        let map = try m.baseMap()
        let water = try #require(features(map).first { map.kind($0) == .water })
        let rings = map.parts(water).map { Array(map.points(ofPart: $0)) }
        #expect(rings.count == 2)
        let areas = rings.map { ring -> Double in
            var sum = 0.0
            for i in 0..<(ring.count - 1) {
                sum += Double(ring[i].x) * Double(ring[i + 1].y) - Double(ring[i + 1].x) * Double(ring[i].y)
            }
            return sum
        }
        // Outer clockwise (positive with y down), hole counter-clockwise.
        #expect(areas.filter { $0 > 0 }.count == 1)
        #expect(areas.filter { $0 < 0 }.count == 1)
        #expect(areas.max()! > -areas.min()!)
    }

    @Test func malformedMultipolygonsAreSkipped() throws {
        var m = TestMap(tile: tile)
        let open = m.way([(20, 20), (230, 20), (230, 230)], [:])
        m.relation([(.way, open, "outer")], ["type": "multipolygon", "landuse": "forest"])
        m.relation([(.way, 999, "outer"), (.node, 1, "")], ["type": "multipolygon", "natural": "water"])
        m.relation([], ["type": "multipolygon", "leisure": "park"])
        let map = try m.baseMap()
        #expect(features(map).isEmpty)
    }

    @Test func coastlineMakesSeaOnTheRight() throws {
        var m = TestMap(tile: tile)
        // West to east: land on the left (north), sea on the right (south).
        m.way([(-50, 128), (100, 120), (306, 128)], ["natural": "coastline"])
        let map = try m.baseMap()
        #expect(seaCovers(map, m.coordinate(128, 220)))
        #expect(seaCovers(map, m.coordinate(250, 250)))
        #expect(!seaCovers(map, m.coordinate(128, 40)))
        #expect(!seaCovers(map, m.coordinate(5, 5)))

        var reversed = TestMap(tile: tile)
        reversed.way([(306, 128), (100, 120), (-50, 128)], ["natural": "coastline"])
        let other = try reversed.baseMap()
        #expect(!seaCovers(other, m.coordinate(128, 220)))
        #expect(seaCovers(other, m.coordinate(128, 40)))
    }

    @Test func closedIslandWithoutOpenCoastMakesTheRestSea() throws {
        var m = TestMap(tile: tile)
        // Counter-clockwise on screen: land inside.
        m.way([(100, 100), (100, 150), (150, 150), (150, 100)], ["natural": "coastline"], closed: true)
        let map = try m.baseMap()
        #expect(seaCovers(map, m.coordinate(20, 20)))
        #expect(!seaCovers(map, m.coordinate(125, 125)))
    }

    @Test func fileRoundTripAndDamageIsRefused() throws {
        var m = TestMap(tile: tile)
        m.rectangle(10, 10, 60, 60, ["natural": "water", "name": "Järvi"])
        m.way([(0, 100), (256, 100)], ["highway": "residential", "name": "Äijäntie"])
        _ = m.node(128, 128, tags: ["place": "suburb", "name": "Kallio"])
        let dir = Fixtures.temporaryDirectory("basemap")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(BaseMap.fileName).path
        var stages: [String] = []
        let stats = try BaseMapBuilder(extractBounds: tile.bounds).build(source: m.source, outputPath: path) { stage, _ in
            if stages.last != stage { stages.append(stage) }
        }
        #expect(stats.fileBytes > 0)
        #expect(stages.contains("basemap: write"))
        let map = try BaseMap(path: path)
        let found = features(map)
        #expect(Set(found.compactMap(map.name)) == ["Järvi", "Äijäntie", "Kallio"])
        #expect(!map.dataBounds.isEmpty)

        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: BaseMapError.self) { try BaseMap(path: path) }
        #expect(throws: BaseMapError.self) { try BaseMap(path: dir.appendingPathComponent("missing.wfm").path) }
    }

    @Test func largeAreasAreCutIntoCells() throws {
        // A forest spanning many zoom-14 cells is stored as pieces; each query sees only nearby ones.
        var m = TestMap(tile: TileID(zoom: 12, x: 2332, y: 1185)!)
        m.rectangle(-200, -200, 456, 456, ["landuse": "forest"])
        let map = try m.baseMap()
        var all: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(tile: TileID(zoom: 0, x: 0, y: 0)!), zoom: 16, into: &all)
        #expect(all.count > 16)
        #expect(all.allSatisfy { map.flags($0).contains(.clipped) })
        var one: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(tile: TileID(zoom: 16, x: 2332 * 16 + 5, y: 1185 * 16 + 5)!), zoom: 16, into: &one)
        #expect((1...4).contains(one.count))
        var low: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(tile: TileID(zoom: 10, x: 583, y: 296)!), zoom: 10, into: &low)
        #expect(low.count == 1)
    }

    /// Nonzero winding over the rings of every sea piece, as the renderer fills them.
    private func seaCovers(_ map: BaseMap, _ c: Coordinate) -> Bool {
        let p = MercatorPoint(c)
        var all: [BaseMapFeatureID] = []
        map.features(in: MercatorBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y), zoom: 16, into: &all)
        return all.contains { f in
            guard map.kind(f) == .sea else { return false }
            var winding = 0
            for part in map.parts(f) {
                let ring = Array(map.points(ofPart: part))
                for i in 0..<(ring.count - 1) {
                    let a = ring[i], b = ring[i + 1]
                    let side = (Double(b.x) - Double(a.x)) * (Double(p.y) - Double(a.y)) - (Double(p.x) - Double(a.x)) * (Double(b.y) - Double(a.y))
                    if a.y <= p.y && b.y > p.y && side > 0 { winding += 1 }
                    if a.y > p.y && b.y <= p.y && side < 0 { winding -= 1 }
                }
            }
            return winding != 0
        }
    }
}
