/// The `OSMHeader` block: what the file claims about itself.
public struct PBFHeader: Sendable {
    /// The bounding box the writer declared, if any (it can be wrong; Heidelberg's is).
    public var boundingBox: (minLongitudeE7: Int32, minLatitudeE7: Int32, maxLongitudeE7: Int32, maxLatitudeE7: Int32)?
    public var requiredFeatures: [String] = []
    public var optionalFeatures: [String] = []
    public var writingProgram: String?
    /// Seconds since 1970 of the replication state, when present.
    public var replicationTimestamp: Int64?

    /// Features this reader understands; any other required feature makes the file unreadable.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation", "Sort.Type_then_ID"]

    static func decode(_ bytes: UnsafeRawBufferPointer) throws(WireReader.WireError) -> PBFHeader {
        var header = PBFHeader()
        var r = WireReader(bytes)
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, 2):
                var b = WireReader(try r.lengthDelimited())
                var left: Int64 = 0, right: Int64 = 0, top: Int64 = 0, bottom: Int64 = 0
                while !b.isAtEnd {
                    let (f, w) = try b.key()
                    switch (f, w) {
                    case (1, 0): left = try b.signedVarint()
                    case (2, 0): right = try b.signedVarint()
                    case (3, 0): top = try b.signedVarint()
                    case (4, 0): bottom = try b.signedVarint()
                    default: try b.skip(wireType: w)
                    }
                }
                header.boundingBox = (Int32(clamping: left / 100), Int32(clamping: bottom / 100),
                                      Int32(clamping: right / 100), Int32(clamping: top / 100))
            case (4, 2): header.requiredFeatures.append(String(decoding: try r.lengthDelimited(), as: UTF8.self))
            case (5, 2): header.optionalFeatures.append(String(decoding: try r.lengthDelimited(), as: UTF8.self))
            case (16, 2): header.writingProgram = String(decoding: try r.lengthDelimited(), as: UTF8.self)
            case (32, 0): header.replicationTimestamp = Int64(bitPattern: try r.varint())
            default: try r.skip(wireType: wire)
            }
        }
        return header
    }
}
