import GeoCore

/// An administrative or postcode boundary with its outline.
struct Boundary {
    var kind: TagClassifier.BoundaryKind
    var name: String
    var otherNames: [String: String]
    var countryCode: String?
    var osmID: Int64
    var shape: Shape
    var bounds: BoundingBox
    var areaSquareMeters: Double

    var adminLevel: Int? {
        if case .administrative(let level) = kind { return level }
        return nil
    }

    var postcode: String? {
        if case .postalCode(let code) = kind { return code }
        return nil
    }
}

/// The boundaries of an extract, found by point: a coarse grid of cells lists the boundaries whose box
/// touches each cell, and the outline decides.
struct BoundaryIndex {
    let boundaries: [Boundary]
    private let cellE7: Int64 = 500_000  // 0.05°
    private var cells: [Int64: [Int32]] = [:]

    init(_ boundaries: [Boundary]) {
        self.boundaries = boundaries
        for (i, b) in boundaries.enumerated() {
            let y0 = Int64(b.bounds.minLatitudeE7).floorDiv(cellE7), y1 = Int64(b.bounds.maxLatitudeE7).floorDiv(cellE7)
            let x0 = Int64(b.bounds.minLongitudeE7).floorDiv(cellE7), x1 = Int64(b.bounds.maxLongitudeE7).floorDiv(cellE7)
            // A huge boundary (a country) sits in a list of its own rather than in thousands of cells.
            if (y1 - y0 + 1) * (x1 - x0 + 1) > 4_096 {
                cells[Int64.min, default: []].append(Int32(i))
                continue
            }
            for y in y0...y1 { for x in x0...x1 { cells[(y << 32) ^ (x & 0xFFFF_FFFF), default: []].append(Int32(i)) } }
        }
    }

    var isEmpty: Bool { boundaries.isEmpty }

    /// The boundaries containing `p`, smallest first.
    func containing(_ p: Coordinate) -> [Boundary] {
        guard !boundaries.isEmpty else { return [] }
        let key = (Int64(p.latitudeE7).floorDiv(cellE7) << 32) ^ (Int64(p.longitudeE7).floorDiv(cellE7) & 0xFFFF_FFFF)
        let candidates = (cells[key] ?? []) + (cells[Int64.min] ?? [])
        return candidates.map { boundaries[Int($0)] }.filter { $0.bounds.contains(p) && $0.shape.contains(p) }
            .sorted { $0.areaSquareMeters < $1.areaSquareMeters }
    }

    /// The name of the smallest administrative area at one of `levels` (tried in order) around `p`.
    static func name(in found: [Boundary], levels: [Int]) -> String? {
        for level in levels {
            if let b = found.first(where: { $0.adminLevel == level }) { return b.name }
        }
        return nil
    }
}
