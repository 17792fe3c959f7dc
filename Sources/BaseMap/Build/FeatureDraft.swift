/// A feature in full detail before it is simplified and cut into grid cells.
struct FeatureDraft {
    var kind: BaseMapKind
    var flags: FeatureFlags
    var layer: Int8
    var name: String
    /// Closed rings for areas, polylines for lines, one single-point part for points.
    var parts: [[MercatorPoint]]
}
