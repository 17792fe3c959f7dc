import SQLite
import GeoCore

/// The filters of a search resolved once: kinds as a bit mask, the box (from a bounding box and/or a
/// radius around the bias), category codes.
struct SearchFilter {
    var kindMask: Int
    var box: BoundingBox?
    var bias: Coordinate?
    var radiusMeters: Double?
    /// nil = no category filter.
    var categoryCodes: [Int64]?
    /// A filter that can match nothing (unknown category, empty box).
    var isImpossible = false

    init(query: PlaceSearchQuery, store: SQLitePlaceStore, session: PlaceSession) {
        var mask = 0
        for kind in query.kinds { mask |= 1 << Int(kind.rawValue) }
        categoryCodes = store.categoryCodes(query.categories, session)
        if let codes = categoryCodes {
            // A category filter means POIs.
            mask &= 1 << Int(PlaceKind.poi.rawValue)
            if codes.isEmpty { isImpossible = true }
        }
        kindMask = mask
        bias = query.bias
        if let r = query.radiusMeters, r > 0, let bias = query.bias {
            radiusMeters = r
            box = SQLitePlaceStore.intersection(query.boundingBox, SQLitePlaceStore.box(around: bias, meters: r))
        } else {
            box = query.boundingBox
        }
        if mask == 0 || (box?.isEmpty ?? false) { isImpossible = true }
    }

    func bind(_ s: Statement, kindMaskAt kindIndex: Int32, boxAt boxIndex: Int32, categoriesAt categoryIndex: Int32) throws {
        try s.bind(kindMask, at: kindIndex)
        let b = box ?? SQLitePlaceStore.everywhere
        try s.bind(Int(b.minLatitudeE7), at: boxIndex)
        try s.bind(Int(b.maxLatitudeE7), at: boxIndex + 1)
        try s.bind(Int(b.minLongitudeE7), at: boxIndex + 2)
        try s.bind(Int(b.maxLongitudeE7), at: boxIndex + 3)
        try s.bind(categoryCodes.map(SQLitePlaceStore.jsonArray), at: categoryIndex)
    }
}
