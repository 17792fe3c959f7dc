import Foundation
import Testing
import BinaryIO
import Deflate
import MapsTestSupport

/// The streaming column writer: what it writes opens as the same columns as an in-memory set,
/// earlier columns can be read back before the file is finished, an unfinished writer leaves
/// nothing behind, and the background check catches a flipped byte.
@Suite struct ColumnFileWriterTests {
    static func folder() -> String {
        Fixtures.temporaryDirectory("wayfinder-columns").path
    }

    let numbers: [UInt32] = (0..<100_000).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
    let small: [Int64] = [-3, 0, 7]

    @Test func writtenFileOpensAsTheSameColumns() throws {
        let path = Self.folder() + "/g.wfg"
        let writer = try ColumnFileWriter(path: path, formatVersion: 9)
        writer.metadata = ["kind": "test value"]
        var sink = writer
        sink.add("a.numbers", numbers)
        sink.add("a.small", small)
        sink.add("a.empty", [UInt8]())
        try writer.finish()
        let set = try ColumnSet.open(path: path, formatVersion: 9)
        #expect(Array(try set.column("a.numbers", as: UInt32.self)) == numbers)
        #expect(Array(try set.column("a.small", as: Int64.self)) == small)
        #expect(try set.column("a.empty", as: UInt8.self).isEmpty)
        #expect(set.metadata["kind"] == "test value")
        try ColumnSet.verify(path: path)
        // The in-memory builder writes through the same writer: byte for byte the same file.
        var builder = ColumnSetBuilder()
        builder.metadata = ["kind": "test value"]
        builder.add("a.numbers", numbers)
        builder.add("a.small", small)
        builder.add("a.empty", [UInt8]())
        let other = path + ".builder"
        try builder.write(to: other, formatVersion: 9)
        #expect(FileManager.default.contents(atPath: other) == FileManager.default.contents(atPath: path))
    }

    @Test func earlierColumnsCanBeReadBeforeTheFileIsFinished() throws {
        let path = Self.folder() + "/g.wfg"
        let writer = try ColumnFileWriter(path: path, formatVersion: 1)
        var sink = writer
        sink.add("first", numbers)
        let view = try writer.mappedView()
        #expect(Array(try view.column("first", as: UInt32.self)) == numbers)
        #expect(!view.contains("second"))
        sink.add("second", small)
        try writer.finish()
        // The view stays valid after the rename.
        #expect(try view.column("first", as: UInt32.self)[99_999] == numbers[99_999])
    }

    @Test func anUnfinishedWriterLeavesNothing() throws {
        let folder = Self.folder()
        do {
            let writer = try ColumnFileWriter(path: folder + "/g.wfg", formatVersion: 1)
            var sink = writer
            sink.add("first", numbers)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)  // the temporary file
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// Writes a file of the columns `add` gives (the first being `numbers`) and flips one bit of
    /// its 50,000th number.
    func writeFlipped(_ path: String, _ add: (inout ColumnFileWriter) -> Void) throws {
        let writer = try ColumnFileWriter(path: path, formatVersion: 1)
        var sink = writer
        add(&sink)
        try writer.finish()
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes[64 + 4 * 50_000] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func theCheckFindsAFlippedByte() throws {
        let path = Self.folder() + "/g.wfg"
        try writeFlipped(path) { $0.add("first", numbers) }
        // Opening without the check still works (a server checks in the background) ...
        _ = try ColumnSet.open(path: path, formatVersion: 1, verify: false)
        // ... and the check refuses it, as opening with it does.
        #expect(throws: ColumnSetError.self) { try ColumnSet.verify(path: path) }
        #expect(throws: ColumnSetError.self) { try ColumnSet.open(path: path, formatVersion: 1) }
    }

    /// Each column's checksum is in the directory: checking some columns reads only theirs, so a
    /// flipped byte in one column fails its check, by name, and not the others'.
    @Test func theColumnCheckNamesTheDamagedColumnOnly() throws {
        let path = Self.folder() + "/g.wfg"
        try writeFlipped(path) { sink in
            sink.add("first", numbers)
            sink.add("second", small)
            sink.add("empty", [UInt8]())
        }
        let set = try ColumnSet.open(path: path, formatVersion: 1, verify: false)
        #expect(set.columnsChecksummed)
        try set.verify(path: path, columns: ["second", "empty"])
        #expect { try set.verify(path: path, columns: ["second", "first"]) } throws: { "\($0)".contains("column \"first\"") }
    }

    /// A file written before columns had checksums (directory lines of five fields) still opens;
    /// it only cannot vouch for single columns, so readers check it whole.
    @Test func aFileWithoutColumnChecksumsOpensAndSaysSo() throws {
        let path = Self.folder() + "/g.wfg"
        let writer = try ColumnFileWriter(path: path, formatVersion: 1)
        var sink = writer
        sink.add("first", numbers)
        try writer.finish()
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let directoryOffset = 64 + Int(bytes[16..<24].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
        let old = String(decoding: bytes[directoryOffset...], as: UTF8.self).split(separator: "\n")
            .map { $0.split(separator: " ").prefix(5).joined(separator: " ") + "\n" }.joined()
        var file = Array(bytes[..<directoryOffset]) + Array(old.utf8)
        let length = UInt64(old.utf8.count), directoryCRC = CRC32.checksum(Array(old.utf8)) | 1
        withUnsafeBytes(of: length.littleEndian) { file.replaceSubrange(24..<32, with: $0) }
        withUnsafeBytes(of: CRC32.checksum(Array(file[64...])).littleEndian) { file.replaceSubrange(32..<36, with: $0) }
        withUnsafeBytes(of: directoryCRC.littleEndian) { file.replaceSubrange(36..<40, with: $0) }
        try Data(file).write(to: URL(fileURLWithPath: path))
        let set = try ColumnSet.open(path: path, formatVersion: 1)
        #expect(Array(try set.column("first", as: UInt32.self)) == numbers)
        #expect(set.directoryChecked && !set.columnsChecksummed)
    }
}

@Suite struct CRC32Tests {
    @Test(arguments: [0, 1, 3, 64, 1_000, 65_537] as [Int])
    func combiningEqualsTheChecksumOfBoth(secondLength: Int) {
        var rng = SystemRandomNumberGenerator()
        let a = (0..<777).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let b = (0..<secondLength).map { _ in UInt8.random(in: 0...255, using: &rng) }
        #expect(CRC32.combine(CRC32.checksum(a), CRC32.checksum(b), secondLength: b.count) == CRC32.checksum(a + b))
    }

    @Test func theWriterKnowsItsFilesChecksum() throws {
        let path = ColumnFileWriterTests.folder() + "/g.wfg"
        let writer = try ColumnFileWriter(path: path, formatVersion: 3)
        writer.metadata = ["a": "b"]
        var sink = writer
        sink.add("x", (0..<50_000).map { UInt64($0) })
        #expect(writer.fileChecksum == nil)
        try writer.finish()
        #expect(writer.fileChecksum == (try FileIO.checksum(ofFile: path)))
    }
}
