import Testing
import GeoCore
import OSMPBF
@testable import Places

/// The pieces the index builder and the ranking are made of, each on its own.
@Suite("Index parts") struct BuildPartsTests {
    @Test("interpolation numbers between two ends", arguments: [
        ("6", "12a", "even", ["8", "10"]), ("1", "9", "odd", ["3", "5", "7"]), ("10", "4", "all", ["9", "8", "7", "6", "5"]),
        ("10a", "10d", "alphabetic", ["10b", "10c"]), ("12", "12c", "alphabetic", ["12a", "12b"]), ("2", "8", "3", ["5"]),
    ])
    func numbers(from: String, to: String, scheme: String, expected: [String]) {
        #expect(AddressInterpolator.numbers(from: from, to: to, scheme: scheme) == expected)
    }

    @Test func interpolationRefusesEndsThatDoNotFitTheScheme() {
        #expect(AddressInterpolator.numbers(from: "1", to: "8", scheme: "odd") == nil)
        #expect(AddressInterpolator.numbers(from: "2", to: "20000", scheme: "even") == nil)
        #expect(AddressInterpolator.numbers(from: "10a", to: "11c", scheme: "alphabetic") == nil)
        #expect(AddressInterpolator.numbers(from: "5", to: "5", scheme: "all") == nil)
    }

    @Test func abbreviationsGoBothWaysAndWriteOutCompoundEndings() {
        let a = Abbreviations.standard
        #expect(a.variants(of: "str").contains("strasse"))
        #expect(a.variants(of: "strasse").contains("str"))
        #expect(a.variants(of: "st").contains("street") && a.variants(of: "st").contains("saint"))
        #expect(a.variants(of: "hauptstr").contains("hauptstrasse"))
        #expect(a.variants(of: "centralg").contains("centralgatan"))
        #expect(!a.variants(of: "str").contains("str"))
        #expect(Abbreviations.joinSplitForms(["p", "za", "duomo"]) == ["piazza", "duomo"])
    }

    @Test func foldingSpellsLettersAsKeyboardsDo() {
        #expect(TextFolding.fold("Nørrebrogade") == "Norrebrogade")
        #expect(TextFolding.fold("Straße") == "Strasse")
        #expect(TextFolding.fold("Łódź") == "lódź")  // case goes in the tokenizer anyway
        #expect(TextFolding.fold("Mannerheimintie") == "Mannerheimintie")
    }

    @Test func locationBiasHalvesEveryHalfDistance() {
        let bias = LocationBias()
        #expect(abs(bias.distanceScore(0) - 0.8) < 1e-9)
        #expect(abs(bias.distanceScore(2_000) - 0.4) < 1e-9)
        #expect(abs(bias.distanceScore(8_000) - 0.05) < 1e-9)
        #expect(bias.importanceWeight(hasBias: true) == 0.5 && bias.importanceWeight(hasBias: false) == 0.5)
        #expect(LocationBias(prominence: 0).importanceWeight(hasBias: true) == 0)
        #expect(LocationBias.halfDistance(photonZoom: 16) == 1_000)
    }

    @Test func recordsSurviveTheStagingCodec() throws {
        var r = PlaceRecord(kind: .poi, osmType: .way, osmID: -42, name: "Kahvila Ö", otherNames: ["name:sv": "Kaffe"], osmKey: "amenity",
                            osmValue: "cafe", importance: 0.35)
        r.streetNames = ["name:sv": "Centralgatan"]
        r.position = Coordinate(latitude: 60.17, longitude: -24.94)
        r.extent = BoundingBox(south: 60.1, west: -25, north: 60.2, east: -24.9)
        r.houseNumber = "5 B"
        r.state = "Uusimaa"
        r.categories = ["cafe", "restaurant"]
        r.keywords = ["coffee"]
        r.extraTags = [(key: "wikidata", value: "Q1")]
        r.flags = [.ownAddress, .hasShape]
        let back = try #require(RecordCodec.decode(RecordCodec.encode(r)))
        #expect(back.name == r.name && back.osmID == -42 && back.otherNames == r.otherNames && back.streetNames == r.streetNames)
        #expect(back.position == r.position && back.extent == r.extent && back.houseNumber == "5 B" && back.state == "Uusimaa")
        #expect(back.categories == r.categories && back.keywords == r.keywords && back.extraTags.map(\.value) == ["Q1"])
        #expect(back.flags == r.flags && back.importance == 0.35)
        #expect(RecordCodec.decode(Array(RecordCodec.encode(r).prefix(10))) == nil)
    }

    @Test func shapesTellInsideFromOutside() throws {
        let square = [(0.0, 0.0), (100, 0), (100, 100), (0, 100)].map { TestMap.coordinate($0.0, $0.1) }
        let hole = [(40.0, 40.0), (60, 40), (60, 60), (40, 60)].map { TestMap.coordinate($0.0, $0.1) }
        let shape = Shape(rings: [square, hole])
        #expect(shape.contains(TestMap.coordinate(10, 10)))
        #expect(!shape.contains(TestMap.coordinate(50, 50)))
        #expect(!shape.contains(TestMap.coordinate(150, 50)))
        #expect(abs(shape.distanceMeters(from: TestMap.coordinate(150, 50)) - 50) < 0.5)
        #expect(shape.distanceMeters(from: TestMap.coordinate(10, 10)) == 0)
        #expect(abs(shape.areaSquareMeters - 10_000) < 50)
        #expect(Shape(encoded: shape.encoded()) == shape)
    }
}
