/// What a base-map build produced.
public struct BaseMapStatistics: Sendable, CustomStringConvertible {
    /// Features in full detail, before simplification and cutting (ways, relations, places, sea).
    public var sourceFeatures: Int
    /// Stored pieces per zoom band.
    public var featuresPerBand: [Int]
    public var points: Int
    public var coastlineWays: Int
    public var seaRings: Int
    public var fileBytes: Int
    public var seconds: Double

    public var description: String {
        "\(sourceFeatures) features → \(featuresPerBand.map(String.init).joined(separator: "/")) pieces per band, "
            + "\(points) points, \(coastlineWays) coastline ways → \(seaRings) sea rings, "
            + "\(fileBytes) bytes in \(Int(seconds * 1000)) ms"
    }
}
