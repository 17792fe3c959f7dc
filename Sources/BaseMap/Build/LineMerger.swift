/// Joins lines that continue each other (same kind, flags, layer and name) into longer lines.
///
/// OSM splits a street into a new way at every change of tags, tram stop or bridge, so one street
/// is often a dozen short ways, none long enough to carry its name. Merged, the name fits, dashes
/// run on, and there are fewer features to read. One-way lines are only joined head to tail.
enum LineMerger {
    private struct Key: Hashable {
        var kind: UInt8
        var flags: UInt8
        var layer: Int8
        var name: String
    }

    static func merge(_ drafts: [FeatureDraft]) -> [FeatureDraft] {
        var output: [FeatureDraft] = []
        var groups: [Key: [Int]] = [:]
        for (i, draft) in drafts.enumerated() {
            if draft.kind.geometry == .line && draft.parts.count == 1 && draft.parts[0].count >= 2 {
                groups[Key(kind: draft.kind.rawValue, flags: draft.flags.rawValue, layer: draft.layer, name: draft.name), default: []].append(i)
            } else {
                output.append(draft)
            }
        }
        for key in groups.keys.sorted(by: { $0.name < $1.name || ($0.name == $1.name && $0.kind < $1.kind) }) {
            guard let members = groups[key] else { continue }
            let lines = members.map { drafts[$0].parts[0] }
            let template = drafts[members[0]]
            for chain in chains(lines, oneway: template.flags.contains(.oneway)) {
                var merged = template
                merged.parts = [chain]
                output.append(merged)
            }
        }
        return output
    }

    static func chains(_ lines: [[MercatorPoint]], oneway: Bool) -> [[MercatorPoint]] {
        guard lines.count > 1 else { return lines }
        var byStart: [MercatorPoint: [Int]] = [:], byEnd: [MercatorPoint: [Int]] = [:]
        for (i, line) in lines.enumerated() {
            byStart[line[0], default: []].append(i)
            byEnd[line[line.count - 1], default: []].append(i)
        }
        var used = [Bool](repeating: false, count: lines.count)
        func take(_ candidates: [Int]?) -> Int? {
            guard let i = candidates?.first(where: { !used[$0] }) else { return nil }
            used[i] = true
            return i
        }
        var result: [[MercatorPoint]] = []
        for start in lines.indices where !used[start] {
            used[start] = true
            var chain = lines[start]
            // Forward from the end.
            while let end = chain.last, chain.first != end {
                if let next = take(byStart[end]) {
                    chain.append(contentsOf: lines[next].dropFirst())
                } else if !oneway, let next = take(byEnd[end]) {
                    chain.append(contentsOf: lines[next].reversed().dropFirst())
                } else {
                    break
                }
            }
            // Backward from the start.
            while let first = chain.first, chain.last != first {
                if let previous = take(byEnd[first]) {
                    chain.insert(contentsOf: lines[previous].dropLast(), at: 0)
                } else if !oneway, let previous = take(byStart[first]) {
                    chain.insert(contentsOf: lines[previous].reversed().dropLast(), at: 0)
                } else {
                    break
                }
            }
            result.append(chain)
        }
        return result
    }
}
