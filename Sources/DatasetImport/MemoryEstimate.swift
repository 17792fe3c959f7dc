import Foundation
import OSMPBF
import BinaryIO
#if canImport(Glibc)
import Glibc
#endif

/// What an import will need in memory, judged twice: before it starts, from the extract's size
/// and block count, and once its roads are read, from what it holds then and the roads' size;
/// and the limit it runs under.
///
/// A PBF block holds at most 8,000 objects (osmium's and the spec's usual limit), so the block
/// count bounds the objects; the bytes per object below are what imports measured here needed at
/// least (see `bench/run.py --scale`), so an extract refused at the start could not have fitted.
/// That bound knows nothing of how many objects are roads, so it stays far below what the
/// graph and hierarchy stages take (a third of the measured peak on the synthetic networks,
/// whose every way is a road); the estimate after reading (`afterReading`) counts the roads and
/// refuses, before those stages, an import that would not fit. Anything that passes is watched
/// as it goes by `MemoryMeter` against the same limit.
struct MemoryEstimate {
    let blocks: Int
    let fileBytes: Int
    /// The peak this import is expected to reach at least.
    let peakBytes: Int

    /// Objects per block the estimate assumes (the usual maximum).
    static let objectsPerBlock = 8_000
    /// Resident bytes per object at the least, per kind of work (measured on the synthetic
    /// networks, whose every object is a road: real extracts carry buildings and land use too, so
    /// they need less per object).
    static let routingBytesPerObject = 110
    static let placesBytesPerObject = 60
    static let fixedBytes = 24 << 20

    init(reader: PBFReader, options: DatasetImporter.Options) throws {
        blocks = try reader.dataBlockCount()
        fileBytes = reader.fileSize
        let objects = Double(blocks * Self.objectsPerBlock) / 2  // blocks are rarely all full
        let perProfile = Double(Self.routingBytesPerObject) * (1 + 0.25 * Double(max(0, options.profiles.count - 1)))
        let places = options.skipPlaces ? 0 : Double(Self.placesBytesPerObject)
        peakBytes = Self.fixedBytes + Int(objects * max(perProfile, places))
    }

    /// What the graph and hierarchy stages add to the memory held once the roads are read, per
    /// node reference of the usable ways: for the first profile, and for each further one (its
    /// hierarchy's order is kept, and the larger graphs of bicycles and pedestrians come later).
    /// Measured on the synthetic networks (bench/results/2026-12-03/memory-estimate.md).
    static let graphBytesPerReference = 180.0
    static let graphBytesPerReferencePerExtraProfile = 10.0

    /// The peak expected once the roads are read (`residentBytes`: the anonymous memory held after
    /// reading the nodes, what the limit is on): the larger of the graph stages' and this
    /// estimate's own (the places index, made later from every object of the extract, can be the
    /// larger in extracts with few roads).
    func afterReading(residentBytes: Int, wayNodeReferences: Int, profiles: Int) -> Int {
        let perReference = Self.graphBytesPerReference + Self.graphBytesPerReferencePerExtraProfile * Double(max(0, profiles - 1))
        return max(peakBytes, residentBytes + Int(Double(wayNodeReferences) * perReference))
    }

    /// Throws when the estimate after reading (`afterReading`) passes the limit (0: none).
    static func checkAfterReading(_ bytes: Int, limit: Int, wayNodeReferences: Int, extractPath: String) throws {
        guard limit > 0, bytes > limit else { return }
        throw ImportError.notEnoughMemory("""
            \(extractPath) has \(wayNodeReferences) node references in its roads: its graphs and hierarchies need about \
            \(gigabytes(bytes)) of memory, and the limit is \(gigabytes(limit)); the import stopped after reading the roads \
            and nothing was changed. Import fewer profiles (--profiles car), use a smaller extract, or free memory \
            (--max-memory sets the limit)
            """)
    }

    /// The limit in bytes (0: none); throws when even the estimate does not fit.
    func check(_ limit: MemoryLimit, extractPath: String) throws -> Int {
        let bytes: Int
        switch limit {
        case .none: return 0
        case .bytes(let b): bytes = b
        case .automatic:
            guard let available = MemoryMeter.availableBytes() else { return 0 }
            // Keep a reserve for the rest of the machine: 5 %, at least 256 MB.
            bytes = MemoryMeter.resident().anonymous + available - max(256 << 20, available / 20)
        }
        guard peakBytes <= bytes else {
            throw ImportError.notEnoughMemory("""
                \(extractPath) (\(fileBytes >> 20) MB, \(blocks) blocks) needs at least \(Self.gigabytes(peakBytes)) of memory \
                to import, and \(Self.gigabytes(bytes)) is left; nothing was changed. Import fewer profiles (--profiles car), \
                skip the places index (--skip-places), use a smaller extract, or free memory (--max-memory sets the limit)
                """)
        }
        return bytes
    }

    /// Ends an import that passed its memory limit: removes its half-written folder (the manifest
    /// still names the previous data, which servers keep serving) and exits with a clear message.
    static func stop(resident: Int, limit: Int, dataFolder: String, output: String) -> Never {
        FileIO.remove(dataFolder)
        let message = """
            wayfinder: the import stopped before running out of memory: it held \(gigabytes(resident)), past its limit of \
            \(gigabytes(limit)). Nothing was changed in \(output) (the previous dataset, if any, is still the one served). \
            Import fewer profiles (--profiles car), skip the places index (--skip-places), use a smaller extract, or free memory \
            (--max-memory sets the limit).

            """
        message.withCString { _ = write(2, $0, strlen($0)) }
        _exit(75)
    }

    static func gigabytes(_ bytes: Int) -> String { String(format: "%.1f GB", Double(bytes) / 1_073_741_824) }
}
