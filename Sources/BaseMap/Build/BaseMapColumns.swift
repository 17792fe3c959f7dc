import BinaryIO

/// Lays the indexed pieces of every band out as the file's columns (see `BaseMap` for the format).
struct BaseMapColumns {
    private(set) var points: [MercatorPoint] = []
    private(set) var partStart: [UInt32] = [0]
    private(set) var featureFirstPart: [UInt32] = [0]
    private(set) var kinds: [UInt8] = []
    private(set) var flags: [UInt8] = []
    private(set) var layers: [Int8] = []
    private(set) var nameIDs: [UInt32] = []
    private(set) var boxes: [MercatorBox] = []
    private(set) var nameStart: [UInt32] = [0]
    private(set) var nameBytes: [UInt8] = []
    private var nameIndex: [String: UInt32] = ["": 0]
    private(set) var bandCells: [(keys: [UInt64], first: [UInt32])] = []

    init() {
        nameStart.append(0)  // name 0 is the empty string
    }

    var featureCount: Int { kinds.count }

    mutating func intern(_ name: String) -> UInt32 {
        if let id = nameIndex[name] { return id }
        let id = UInt32(nameStart.count - 1)
        nameBytes.append(contentsOf: name.utf8)
        nameStart.append(UInt32(nameBytes.count))
        nameIndex[name] = id
        return id
    }

    /// Appends one band's pieces, grouped by cell and ordered by kind within a cell.
    mutating func appendBand(_ pieces: [CellIndexer.Piece], drafts: [FeatureDraft]) throws(BaseMapError) {
        let order = pieces.indices.sorted { a, b in
            let pa = pieces[a], pb = pieces[b]
            if pa.cellKey != pb.cellKey { return pa.cellKey < pb.cellKey }
            let ka = drafts[pa.draftIndex].kind.rawValue, kb = drafts[pb.draftIndex].kind.rawValue
            if ka != kb { return ka < kb }
            return a < b
        }
        var keys: [UInt64] = []
        var first: [UInt32] = []
        for i in order {
            let piece = pieces[i]
            let draft = drafts[piece.draftIndex]
            if keys.last != piece.cellKey {
                keys.append(piece.cellKey)
                first.append(UInt32(featureCount))
            }
            var box = MercatorBox.empty
            for part in piece.parts {
                points.append(contentsOf: part)
                for p in part { box.formUnion(p) }
                guard points.count < Int(UInt32.max) else { throw .tooLarge("more than 4 billion points") }
                partStart.append(UInt32(points.count))
            }
            featureFirstPart.append(UInt32(partStart.count - 1))
            kinds.append(draft.kind.rawValue)
            flags.append(piece.flags.rawValue)
            layers.append(draft.layer)
            nameIDs.append(intern(draft.name))
            boxes.append(box)
        }
        first.append(UInt32(featureCount))
        bandCells.append((keys, first))
    }

    func write(into builder: inout ColumnSetBuilder) {
        builder.add("points", points)
        builder.add("partStart", partStart)
        builder.add("featureFirstPart", featureFirstPart)
        builder.add("featureKind", kinds)
        builder.add("featureFlags", flags)
        builder.add("featureLayer", layers)
        builder.add("featureName", nameIDs)
        builder.add("featureBox", boxes)
        builder.add("nameStart", nameStart)
        builder.add("nameBytes", nameBytes)
        for (b, cells) in bandCells.enumerated() {
            builder.add("band\(b).cellKey", cells.keys)
            builder.add("band\(b).cellFirst", cells.first)
        }
    }
}
