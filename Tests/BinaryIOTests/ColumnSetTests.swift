import Foundation
import Testing
import BinaryIO
import MapsTestSupport
import GeoCore
import Deflate

/// The column files every frozen structure is stored in: what is written is read back, column by
/// column, and a damaged or foreign file is refused with a reason rather than read.
@Suite("Column files") struct ColumnSetTests {
    func builder() -> ColumnSetBuilder {
        var b = ColumnSetBuilder()
        b.metadata = ["profile": "car", "note": "a=b; c\nd"]
        b.add("ids", [UInt32](0..<1000))
        b.add("coordinates", [Int32](repeating: -7, count: 3) + [Int32.max, Int32.min])
        b.add("empty", [UInt64]())
        return b
    }

    func file() -> String { Fixtures.temporaryDirectory("wayfinder-columns").appendingPathComponent("set.wfc").path }

    @Test func whatIsWrittenIsReadBack() throws {
        let path = file()
        try builder().write(to: path, formatVersion: 3)
        for verify in [true, false] {
            let set = try ColumnSet.open(path: path, formatVersion: 3, verify: verify)
            #expect(Array(try set.column("ids", as: UInt32.self)) == Array(0..<1000))
            #expect(Array(try set.column("coordinates", as: Int32.self)) == [-7, -7, -7, Int32.max, Int32.min])
            #expect(try set.column("empty", as: UInt64.self).isEmpty)
            #expect(set.metadata["note"] == "a=b; c\nd")
            #expect(set.metadata["profile"] == "car")
        }
        // The same columns frozen in memory read the same.
        let memory = builder().freeze()
        #expect(Array(try memory.column("ids", as: UInt32.self)) == Array(0..<1000))
    }

    @Test func aMissingOrMistypedColumnIsAnErrorNamingIt() throws {
        let set = builder().freeze()
        #expect(throws: ColumnSetError.self) { try set.column("nope", as: UInt32.self) }
        #expect { try set.column("ids", as: UInt64.self) } throws: { "\($0)".contains("ids") }
        #expect(set.optionalColumn("nope", as: UInt8.self).isEmpty)
    }

    @Test func aFlippedByteIsRefusedAndAnotherVersionToo() throws {
        let path = file()
        try builder().write(to: path, formatVersion: 3)
        #expect { try ColumnSet.open(path: path, formatVersion: 4) } throws: { "\($0)".contains("version") }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 20] ^= 0x01  // in the directory, which has a checksum of its own
        try bytes.write(to: URL(fileURLWithPath: path))
        for verify in [true, false] {
            #expect { try ColumnSet.open(path: path, formatVersion: 3, verify: verify) } throws: { error in
                guard case ColumnSetError.damaged = error else { return false }
                return true
            }
        }
        try Data("not a column file at all".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ColumnSetError.self) { try ColumnSet.open(path: path, formatVersion: 3) }
    }
}

@Suite("Files") struct FileIOTests {
    @Test func atomicWritesLeaveNoTemporaryAndReplaceWhole() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-fileio")
        let path = dir.appendingPathComponent("a.bin").path
        try FileIO.writeAtomically([1, 2, 3], to: path)
        try FileIO.writeAtomically([UInt8](repeating: 9, count: 100_000), to: path)
        #expect(try FileIO.readAll(path) == [UInt8](repeating: 9, count: 100_000))
        #expect(FileIO.listDirectory(dir.path) == ["a.bin"])
        #expect(FileIO.fileSize(path) == 100_000)
    }

    @Test func checksumsOfFilesMatchChecksumsOfTheirBytes() throws {
        let dir = Fixtures.temporaryDirectory("wayfinder-fileio")
        let path = dir.appendingPathComponent("b.bin").path
        var rng = SplitMix64(seed: 5)
        let bytes = (0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        try FileIO.writeAtomically(bytes, to: path)
        #expect(try FileIO.checksum(ofFile: path) == CRC32.checksum(bytes))
        // CRC-32 of "123456789" is the standard check value.
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(throws: FileIOError.self) { try FileIO.readAll(dir.appendingPathComponent("missing").path) }
    }
}
