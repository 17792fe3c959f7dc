#if canImport(Glibc)
import Glibc
#endif
import Deflate

/// Writes OSM data as a standard `.osm.pbf` (zlib blobs, dense nodes, sorted type-then-id
/// as the caller supplies it), readable by osmium, OSRM and Valhalla.
///
/// Used by the synthetic network generator and by tests that need small real files.
/// The file is written to `path + ".tmp"` and renamed by `finish()`, so a crash never leaves a
/// half-written extract under the final name.
public final class PBFWriter {
    public let path: String
    private let temporaryPath: String
    private var fd: Int32
    private let compressor: DeflateCompressor
    /// Blocks are cut at this many objects, like osmium's 8000.
    public static let objectsPerBlock = 8000

    public init(path: String, boundingBox: (minLatitudeE7: Int32, minLongitudeE7: Int32, maxLatitudeE7: Int32, maxLongitudeE7: Int32)?,
                writingProgram: String = "wayfinder") throws(PBFError) {
        self.path = path
        temporaryPath = path + ".tmp"
        fd = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PBFError(.cannotOpen, offset: 0, String(cString: strerror(errno)), path: temporaryPath) }
        guard let compressor = DeflateCompressor(level: 6) else {
            close(fd)
            unlink(temporaryPath)
            throw PBFError(.cannotOpen, offset: 0, "no memory for a compressor", path: temporaryPath)
        }
        self.compressor = compressor
        var header = WireWriter()
        if let b = boundingBox {
            header.message(1) { bb in
                bb.sint(1, Int64(b.minLongitudeE7) * 100)
                bb.sint(2, Int64(b.maxLongitudeE7) * 100)
                bb.sint(3, Int64(b.maxLatitudeE7) * 100)
                bb.sint(4, Int64(b.minLatitudeE7) * 100)
            }
        }
        header.string(4, "OsmSchema-V0.6")
        header.string(4, "DenseNodes")
        header.string(5, "Sort.Type_then_ID")
        header.string(16, writingProgram)
        try writeBlob(type: "OSMHeader", payload: header.bytes)
    }

    deinit {
        if fd >= 0 { close(fd); unlink(temporaryPath) }
    }

    /// Writes one block's objects; nodes go in one dense group, then ways, then relations.
    public func write(_ block: OSMBlock) throws(PBFError) {
        var w = WireWriter()
        w.message(1) { table in
            for s in block.strings { table.bytesField(1, Array(s.utf8)) }
        }
        if block.nodeCount > 0 {
            w.message(2) { group in
                group.message(2) { dense in
                    dense.packedDeltaSigned(1, block.nodeIDs)
                    dense.packedDeltaSigned(8, block.nodeLatitudesE7.lazy.map { Int64($0) })
                    dense.packedDeltaSigned(9, block.nodeLongitudesE7.lazy.map { Int64($0) })
                    if !block.nodeTagKeys.isEmpty {
                        var kv: [UInt64] = []
                        for i in 0..<block.nodeCount {
                            for t in block.nodeTagRange(i) {
                                kv.append(UInt64(block.nodeTagKeys[t]))
                                kv.append(UInt64(block.nodeTagValues[t]))
                            }
                            kv.append(0)
                        }
                        dense.packedUInt(10, kv)
                    }
                }
            }
        }
        if block.wayCount > 0 {
            w.message(2) { group in
                for i in 0..<block.wayCount {
                    group.message(3) { way in
                        way.uint(1, UInt64(block.wayIDs[i]))
                        let tags = block.wayTagRange(i)
                        way.packedUInt(2, tags.map { UInt64(block.wayTagKeys[$0]) })
                        way.packedUInt(3, tags.map { UInt64(block.wayTagValues[$0]) })
                        way.packedDeltaSigned(8, block.wayRefs[block.wayRefRange(i)])
                    }
                }
            }
        }
        if block.relationCount > 0 {
            w.message(2) { group in
                for i in 0..<block.relationCount {
                    group.message(4) { rel in
                        rel.uint(1, UInt64(block.relationIDs[i]))
                        let tags = block.relationTagRange(i)
                        rel.packedUInt(2, tags.map { UInt64(block.relationTagKeys[$0]) })
                        rel.packedUInt(3, tags.map { UInt64(block.relationTagValues[$0]) })
                        let members = block.relationMemberRange(i)
                        rel.packedUInt(8, members.map { UInt64(block.relationMemberRoles[$0]) })
                        rel.packedDeltaSigned(9, block.relationMemberIDs[members])
                        rel.packedUInt(10, members.map { UInt64(block.relationMemberTypes[$0].rawValue) })
                    }
                }
            }
        }
        try writeBlob(type: "OSMData", payload: w.bytes)
    }

    /// Flushes, syncs and renames the file into place.
    public func finish() throws(PBFError) {
        guard fsync(fd) == 0, close(fd) == 0 else {
            throw PBFError(.cannotOpen, offset: 0, "cannot write: \(String(cString: strerror(errno)))", path: temporaryPath)
        }
        fd = -1
        guard rename(temporaryPath, path) == 0 else {
            throw PBFError(.cannotOpen, offset: 0, "cannot rename into place: \(String(cString: strerror(errno)))", path: path)
        }
    }

    private func writeBlob(type: String, payload: [UInt8]) throws(PBFError) {
        guard let compressed = compressor.compress(payload, .zlib) else {
            throw PBFError(.cannotOpen, offset: 0, "a block could not be compressed", path: temporaryPath)
        }
        var blob = WireWriter()
        blob.uint(2, UInt64(payload.count))
        blob.bytesField(3, compressed)
        var header = WireWriter()
        header.string(1, type)
        header.uint(3, UInt64(blob.bytes.count))
        let n = UInt32(header.bytes.count)
        let prefix: [UInt8] = [UInt8(n >> 24), UInt8((n >> 16) & 0xff), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)]
        try writeAll(prefix + header.bytes + blob.bytes)
    }

    private func writeAll(_ bytes: [UInt8]) throws(PBFError) {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw PBFError(.cannotOpen, offset: 0, "cannot write: \(String(cString: strerror(errno)))", path: temporaryPath) }
            done += n
        }
    }
}
