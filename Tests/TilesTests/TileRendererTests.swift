import BaseMap
import Dispatch
import GeoCore
import OSMPBF
import Synchronization
import Testing
import Tiles

@Suite struct TileRendererTests {
    let style = MapStyle.standard
    let tile = TestMap.helsinkiTile

    @Test func lakeParkRoadAndEmptyLandHaveTheirColours() throws {
        var m = TestMap(tile: tile)
        m.rectangle(20, 20, 110, 110, ["natural": "water"])
        m.rectangle(140, 20, 230, 110, ["leisure": "park"])
        m.way([(-20, 180), (276, 180)], ["highway": "primary"])
        m.rectangle(150, 210, 200, 245, ["building": "yes"])
        let r = try m.render()
        #expect(r.pixel(65, 65, is: try #require(style.areas[.water]).fill))
        #expect(r.pixel(185, 65, is: try #require(style.areas[.park]).fill))
        #expect(r.pixel(60, 180, is: try #require(style.lines[.primary]).fill))
        #expect(r.pixel(175, 228, is: try #require(style.areas[.building]).fill))
        #expect(r.pixel(60, 230, is: style.land))
        #expect(r.pixel(128, 140, is: style.land))
        // The road has a darker casing on both sides.
        let width = try #require(style.lines[.primary]).widthPixels.value(at: 16)
        let edge = 180 - Int((width / 2).rounded(.up)) - 1
        #expect(r.color(60, edge).distance(to: try #require(style.lines[.primary]).fill) > 10)
    }

    @Test func coastlineSeaSideIsWater() throws {
        var m = TestMap(tile: tile)
        // West to east: the sea is on the right, to the south.
        m.way([(-60, 120), (90, 110), (180, 135), (316, 120)], ["natural": "coastline"])
        let r = try m.render()
        #expect(r.pixel(128, 220, is: style.water))
        #expect(r.pixel(5, 250, is: style.water))
        #expect(r.pixel(250, 250, is: style.water))
        #expect(r.pixel(128, 40, is: style.land))
        #expect(r.pixel(250, 5, is: style.land))

        var flipped = TestMap(tile: tile)
        flipped.way([(316, 120), (180, 135), (90, 110), (-60, 120)], ["natural": "coastline"])
        let f = try flipped.render()
        #expect(f.pixel(128, 220, is: style.land))
        #expect(f.pixel(128, 40, is: style.water))
    }

    @Test func islandInTheSeaStaysLand() throws {
        var m = TestMap(tile: tile)
        m.way([(-60, 60), (316, 60)], ["natural": "coastline"])
        // Counter-clockwise on screen, as OSM draws islands.
        m.way([(100, 140), (100, 200), (170, 200), (170, 140)], ["natural": "coastline"], closed: true)
        let r = try m.render()
        #expect(r.pixel(135, 170, is: style.land))
        #expect(r.pixel(60, 170, is: style.water))
        #expect(r.pixel(135, 20, is: style.land))
    }

    @Test func multipolygonHoleIsNotFilled() throws {
        var m = TestMap(tile: tile)
        let north = m.way([(20, 20), (236, 20), (236, 236)], [:])
        let south = m.way([(236, 236), (20, 236), (20, 20)], [:])
        let hole = m.way([(90, 90), (90, 166), (166, 166), (166, 90)], [:], closed: true)
        m.relation([(.way, north, "outer"), (.way, south, "outer"), (.way, hole, "inner")],
                   ["type": "multipolygon", "landuse": "forest"])
        let r = try m.render()
        let forest = try #require(style.areas[.forest]).fill
        #expect(r.pixel(50, 50, is: forest))
        #expect(r.pixel(200, 200, is: forest))
        #expect(r.pixel(128, 128, is: style.land))
        #expect(r.pixel(5, 5, is: style.land))
    }

    @Test func overlappingLabelsDrawOnlyOne() throws {
        var m = TestMap(tile: tile)
        _ = m.node(128, 128, tags: ["place": "suburb", "name": "Kallio"])
        _ = m.node(132, 130, tags: ["place": "suburb", "name": "Sörnäinen"])
        _ = m.node(128, 40, tags: ["place": "suburb", "name": "Hakaniemi"])
        let r = try m.render()
        #expect(r.labels.count == 2)
        #expect(r.labels.contains { $0.text == "HAKANIEMI" })
        #expect(r.labels.contains { $0.text == "KALLIO" } != r.labels.contains { $0.text == "SÖRNÄINEN" })
    }

    @Test func labelsNearTheTileEdgeAreNotCut() throws {
        var m = TestMap(tile: tile)
        _ = m.node(250, 128, tags: ["place": "suburb", "name": "Reunalla"])
        _ = m.node(128, 3, tags: ["place": "suburb", "name": "Ylhäällä"])
        m.way([(-100, 250), (400, 250)], ["highway": "residential", "name": "Rantakatu"])
        let r = try m.render()
        #expect(r.labels.isEmpty)
    }

    @Test func streetNamesFollowTheRoad() throws {
        var m = TestMap(tile: TileID(zoom: 17, x: tile.x * 2, y: tile.y * 2)!)
        m.way([(-20, 200), (276, 200)], ["highway": "residential", "name": "Mannerheimintie"])
        m.way([(80, -20), (80, 276)], ["highway": "residential", "name": "Aleksanterinkatu"])
        let r = try m.render()
        let names = Set(r.labels.map(\.text))
        #expect(names == ["Mannerheimintie", "Aleksanterinkatu"])
        let along = try #require(r.labels.first { $0.text == "Mannerheimintie" })
        #expect(abs(along.centerY - 200) < 1)
        let across = try #require(r.labels.first { $0.text == "Aleksanterinkatu" })
        #expect(abs(across.centerX - 80) < 1)
    }

    @Test func pngIsA256PixelImage() throws {
        var m = TestMap(tile: tile)
        m.rectangle(20, 20, 110, 110, ["natural": "water"])
        let renderer = TileRenderer(baseMap: try m.baseMap())
        let png = try renderer.renderPNG(tile)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let image = try #require(TileImage(png: png))
        #expect(image.widthPixels == 256 && image.heightPixels == 256)
        #expect(image.color(x: 65, y: 65)?.distance(to: style.water) ?? 255 <= 3)
        #expect(TileImage(png: Array(png.prefix(100))) == nil)
        #expect(TileImage(png: [1, 2, 3]) == nil)
    }

    @Test func tilesOutsideTheDataAreBlankLand() throws {
        var m = TestMap(tile: tile)
        m.rectangle(20, 20, 110, 110, ["natural": "water"])
        let renderer = TileRenderer(baseMap: try m.baseMap())
        let far = try renderer.renderDetailed(TileID(zoom: 16, x: 100, y: 100)!)
        #expect(far.featureCount == 0)
        #expect(far.image.pixels.allSatisfy { $0 == UInt32(style.land.red) << 16 | UInt32(style.land.green) << 8 | UInt32(style.land.blue) })
        _ = try renderer.renderPNG(TileID(zoom: 0, x: 0, y: 0)!)
        _ = try renderer.renderPNG(TileID(zoom: 22, x: 1 << 21, y: 1 << 21)!)
    }

    @Test func concurrentRendersAgree() throws {
        var m = TestMap(tile: tile)
        m.rectangle(20, 20, 110, 110, ["natural": "water"])
        m.way([(-20, 180), (276, 180)], ["highway": "primary", "name": "Hämeentie"])
        _ = m.node(128, 60, tags: ["place": "suburb", "name": "Kallio"])
        let renderer = TileRenderer(baseMap: try m.baseMap())
        let expected = try renderer.renderPNG(tile)
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let png = (try? renderer.renderPNG(tile)) ?? []
            results.withLock { $0.append(png) }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 8 && all.allSatisfy { $0 == expected })
    }
}
