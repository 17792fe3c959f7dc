import RoadNetwork

/// Restrictions whose via member is a way rather than a node, applied by copying arcs.
extension GraphAssembly {
    /// Applies `from → via way → to` restrictions by copying the via way's arcs: travel that
    /// arrives from the `from` way runs on the copies, whose turns lack (or, for `only_*`, keep
    /// only) the move onto the `to` way. Other travel keeps the original arcs.
    mutating func applyViaWayRestrictions(_ table: inout TurnTable, _ adj: Adjacency) {
        // Index the arcs of every from-way once, rather than scanning all arcs per restriction.
        var fromWayArcs: [Int64: [ArcID]] = [:]
        for restriction in x.restrictions where restriction.profileMask & blockBit != 0 && restriction.viaNode == nil {
            for from in restriction.fromWays { fromWayArcs[from] = [] }
        }
        guard !fromWayArcs.isEmpty else { return }
        for a in 0..<b.arcEdge.count where b.arcOriginal[a] == ArcID(a) {
            let way = wayOSMID(ArcID(a))
            if fromWayArcs[way] != nil { fromWayArcs[way]!.append(ArcID(a)) }
        }
        for restriction in x.restrictions where restriction.profileMask & blockBit != 0 && restriction.viaNode == nil {
            // A conditional via-way restriction would need conditional copies: not supported, so off.
            guard restriction.viaWays.count == 1, restriction.schedule == nil else { skippedRestrictions += 1; continue }
            let via = restriction.viaWays[0]
            let toWays = Set(restriction.toWays)
            var applied = false
            for from in restriction.fromWays {
                guard let fromIndex = x.wayByOSMID[from], graphWayOf[Int(fromIndex)] >= 0 else { continue }
                // Arcs of the from way that can turn onto the via way.
                let fromArcs = (fromWayArcs[from] ?? []).filter { a in table.list(a).contains { wayOSMID($0.0) == via } }
                for a in fromArcs {
                    guard let path = viaPath(from: a, via: via, to: toWays, table) else { continue }
                    duplicate(path: path, after: a, kind: restriction.kind, to: toWays, &table)
                    applied = true
                }
            }
            if !applied { skippedRestrictions += 1 }
        }
    }

    /// The arcs along the via way from `a` until one can turn onto a `to` way.
    private func viaPath(from a: ArcID, via: Int64, to: Set<Int64>, _ table: TurnTable) -> [ArcID]? {
        for first in table.list(a) where wayOSMID(first.0) == via {
            var path = [first.0]
            var seen: Set<ArcID> = [first.0]
            while path.count < 64 {
                let current = path[path.count - 1]
                let next = table.list(current)
                if next.contains(where: { to.contains(wayOSMID($0.0)) }) { return path }
                guard let step = next.first(where: { wayOSMID($0.0) == via && $0.0 != twin(current) && !seen.contains($0.0) }) else { break }
                path.append(step.0)
                seen.insert(step.0)
            }
        }
        return nil
    }

    private mutating func duplicate(path: [ArcID], after a: ArcID, kind: TurnRestriction.Kind, to: Set<Int64>, _ table: inout TurnTable) {
        var previous = a
        var previousTarget = path[0]
        for (i, original) in path.enumerated() {
            let copy = ArcID(b.arcEdge.count)
            b.arcEdge.append(b.arcEdge[original.index])
            b.arcDurationMs.append(b.arcDurationMs[original.index])
            b.arcFlags.append(b.arcFlags[original.index].intersection(.pushing).union(.restrictionCopy))
            b.arcOriginal.append(b.arcOriginal[original.index])
            var copiedTurns = table.list(original)
            let isLast = i == path.count - 1
            if isLast {
                switch kind {
                case .prohibitive: copiedTurns.removeAll { to.contains(wayOSMID($0.0)) }
                case .mandatory: copiedTurns.removeAll { !to.contains(wayOSMID($0.0)) }
                }
            } else if kind == .mandatory {
                copiedTurns.removeAll { $0.0 != path[i + 1] }
            }
            table.overrides[copy.index] = copiedTurns
            var previousTurns = table.list(previous)
            if kind == .mandatory && i == 0 {
                previousTurns.removeAll { $0.0 != previousTarget }
            }
            for j in previousTurns.indices where previousTurns[j].0 == previousTarget { previousTurns[j].0 = copy }
            table.overrides[previous.index] = previousTurns
            previous = copy
            if !isLast { previousTarget = path[i + 1] }
        }
    }
}
