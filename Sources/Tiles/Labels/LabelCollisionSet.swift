/// Axis-aligned boxes already taken by labels on one tile; a new label is placed only where it
/// overlaps none of them.
struct LabelCollisionSet {
    struct Box: Equatable {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        func intersects(_ o: Box) -> Bool { minX < o.maxX && o.minX < maxX && minY < o.maxY && o.minY < maxY }
    }

    private(set) var boxes: [Box] = []

    func collides(_ candidate: Box) -> Bool {
        boxes.contains { $0.intersects(candidate) }
    }

    func collides(any candidates: [Box]) -> Bool {
        candidates.contains(where: collides)
    }

    mutating func insert(_ box: Box) { boxes.append(box) }
    mutating func insert(contentsOf list: [Box]) { boxes.append(contentsOf: list) }
}
