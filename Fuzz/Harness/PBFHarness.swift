#if canImport(Glibc)
import Glibc
#endif
public import OSMPBF

/// The result of reading one input as an `.osm.pbf` file.
public struct PBFOutcome: FuzzOutcome {
    /// The reader's error, or nil when the whole file was read.
    public var error: PBFError?
    public var blocks = 0
    public var nodes = 0
    public var ways = 0
    public var relations = 0
    public var problems: [String] = []

    public var summary: String {
        if let error { return "rejected: \(error.kind) at byte \(error.offset): \(error.detail)" }
        return "read \(blocks) blocks: \(nodes) nodes, \(ways) ways, \(relations) relations"
    }
}

extension FuzzHarness {
    /// Reads `bytes` as a whole `.osm.pbf` file with `PBFReader` (header, then every data block
    /// with all content) and checks that every block keeps the promise consumers rely on: every
    /// offset and string index is in range, so they may index freely.
    public static func pbf(_ bytes: UnsafeRawBufferPointer) -> PBFOutcome {
        var outcome = PBFOutcome()
        guard let path = FuzzInputs.writeTemporary(bytes, suffix: ".osm.pbf") else {
            outcome.problems.append("could not write the input to a temporary file")
            return outcome
        }
        defer { unlink(path) }
        var problems: [String] = []
        var blocks = 0, nodes = 0, ways = 0, relations = 0
        do {
            let reader = try PBFReader(path: path)
            try reader.forEachBlock(content: .all) { block in
                blocks += 1
                nodes += block.nodeCount
                ways += block.wayCount
                relations += block.relationCount
                problems += PBFBlockCheck.problems(in: block)
            }
        } catch let error as PBFError {
            outcome.error = error
            if !(0...bytes.count).contains(error.offset) {
                problems.append("error offset \(error.offset) is outside the \(bytes.count)-byte file: \(error)")
            }
            if error.detail.isEmpty { problems.append("error without a detail: \(error.kind)") }
            if error.path != path { problems.append("error does not name the file: \(error)") }
        } catch {
            problems.append("threw something other than PBFError: \(error)")
        }
        outcome.blocks = blocks
        outcome.nodes = nodes
        outcome.ways = ways
        outcome.relations = relations
        outcome.problems += problems
        return outcome
    }
}

/// The invariants `OSMBlock` documents ("every index in a block produced by `PBFReader` has
/// been validated"), checked column by column, then exercised through the public accessors.
enum PBFBlockCheck {
    static func problems(in b: OSMBlock) -> [String] {
        var problems: [String] = []
        let strings = b.strings.count
        if strings == 0 { problems.append("empty string table (index 0 must exist)") }
        func offsets(_ name: String, _ column: [Int32], count: Int, total: Int) {
            guard column.count == count + 1 else {
                problems.append("\(name) has \(column.count) entries for \(count) objects")
                return
            }
            guard column.first == 0, column.last.map({ Int($0) == total }) == true else {
                problems.append("\(name) runs from \(column.first ?? -1) to \(column.last ?? -1), expected 0 to \(total)")
                return
            }
            for i in 0..<count where column[i] > column[i + 1] {
                problems.append("\(name) decreases at \(i)")
                return
            }
        }
        func indices(_ name: String, _ column: [Int32]) {
            if let bad = column.first(where: { $0 < 0 || Int($0) >= strings }) {
                problems.append("\(name) holds \(bad), outside the \(strings)-entry string table")
            }
        }
        if b.nodeLatitudesE7.count != b.nodeCount || b.nodeLongitudesE7.count != b.nodeCount {
            problems.append("\(b.nodeCount) nodes but \(b.nodeLatitudesE7.count) latitudes and \(b.nodeLongitudesE7.count) longitudes")
        }
        if b.nodeLatitudesE7.contains(where: { abs($0) > 900_000_000 }) { problems.append("a node latitude is beyond ±90°") }
        if b.nodeLongitudesE7.contains(where: { abs($0) > 1_800_000_000 }) { problems.append("a node longitude is beyond ±180°") }
        if b.nodeTagKeys.count != b.nodeTagValues.count { problems.append("node tag keys and values differ in count") }
        offsets("nodeTagOffsets", b.nodeTagOffsets, count: b.nodeCount, total: b.nodeTagKeys.count)
        indices("nodeTagKeys", b.nodeTagKeys)
        indices("nodeTagValues", b.nodeTagValues)

        if b.wayTagKeys.count != b.wayTagValues.count { problems.append("way tag keys and values differ in count") }
        offsets("wayRefOffsets", b.wayRefOffsets, count: b.wayCount, total: b.wayRefs.count)
        offsets("wayTagOffsets", b.wayTagOffsets, count: b.wayCount, total: b.wayTagKeys.count)
        indices("wayTagKeys", b.wayTagKeys)
        indices("wayTagValues", b.wayTagValues)

        let members = b.relationMemberIDs.count
        if b.relationMemberTypes.count != members || b.relationMemberRoles.count != members {
            problems.append("\(members) relation members but \(b.relationMemberTypes.count) types and \(b.relationMemberRoles.count) roles")
        }
        if b.relationTagKeys.count != b.relationTagValues.count { problems.append("relation tag keys and values differ in count") }
        offsets("relationMemberOffsets", b.relationMemberOffsets, count: b.relationCount, total: members)
        offsets("relationTagOffsets", b.relationTagOffsets, count: b.relationCount, total: b.relationTagKeys.count)
        indices("relationMemberRoles", b.relationMemberRoles)
        indices("relationTagKeys", b.relationTagKeys)
        indices("relationTagValues", b.relationTagValues)
        guard problems.isEmpty else { return problems }

        // Consumers index freely through these; any slip above would trap here.
        var touched = 0
        for i in 0..<b.nodeCount {
            touched += b.nodeTags(i).count
            _ = b.nodeCoordinateE7(i)
        }
        for i in 0..<b.wayCount {
            touched += b.wayTags(i).count
            for r in b.wayRefRange(i) { touched &+= Int(truncatingIfNeeded: b.wayRefs[r]) }
        }
        for i in 0..<b.relationCount {
            touched += b.relationTags(i).count
            for m in b.relationMemberRange(i) { touched += Int(b.relationMemberRoles[m]) + Int(b.relationMemberTypes[m].rawValue) }
        }
        _ = b.stringIndex(of: "highway")
        _ = touched
        return problems
    }
}
