public import RoadNetwork

/// A recurring span of the week (the same hours on a set of days) over which a lower bound is
/// taken: e.g. Monday to Friday 06:00–10:00. Lower bounds over the whole week are loose for a
/// trip in a rush hour (every arc at its night-time speed); over a band that covers the trip they
/// are nearly its real times, and A* then settles little more than the route itself.
public struct TimeBand: Sendable, Equatable, CustomStringConvertible {
    /// Bit d set: the band recurs on day d (0 = Monday).
    public var days: UInt8
    /// Quarter-hours after midnight, end exclusive; the end may pass midnight (up to 192).
    public var startQuarter: Int
    public var endQuarter: Int

    public init(days: UInt8, startQuarter: Int, endQuarter: Int) {
        self.days = days
        self.startQuarter = startQuarter
        self.endQuarter = endQuarter
    }

    public var slots: SlotMask {
        var mask = SlotMask()
        for d in 0..<7 where days & (1 << d) != 0 {
            for q in startQuarter..<endQuarter { mask.insert(d * 96 + q) }
        }
        return mask
    }

    public var description: String {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let dayList = (0..<7).filter { days & (1 << $0) != 0 }.map { names[$0] }.joined(separator: ",")
        func time(_ q: Int) -> String {
            let h = (q / 4) % 24, m = (q % 4) * 15
            return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
        }
        return "\(dayList) \(time(startQuarter))-\(time(endQuarter))"
    }
}

/// Chooses the bands that tighten potentials most for trips of up to two hours leaving between
/// 06:00 and 22:00 (weekdays count double), greedily: each next band is the one that raises the
/// summed lower bound of those trips' windows most, where a window uses the tightest band that
/// contains it (or the whole week). Computed from the profiles alone (the most used ones, weighted
/// by the free-flow time of their arcs), so it takes milliseconds whatever the map's size.
public enum BandPlan {
    public static func choose(_ table: TravelTimeTable, count: Int) -> [TimeBand] {
        guard count > 0, table.useHistorical else { return [] }
        let perWeek = TravelTimeTable.slotsPerWeek
        let profileCount = table.profileFactors.count / perWeek
        var weight = [Double](repeating: 0, count: profileCount)
        for a in 0..<table.freeFlowMs.count { weight[Int(table.profileOfArc[a])] += Double(table.freeFlowMs[a]) }
        let used = (0..<profileCount).filter { weight[$0] > 0 }.sorted { weight[$0] > weight[$1] }.prefix(256)
        guard !used.isEmpty else { return [] }
        func factor(_ p: Int, _ s: Int) -> Double { Double(table.profileFactors[p * perWeek + ((s % perWeek) + perWeek) % perWeek]) }
        // Is every profile the same each day? Then bands recur on all seven days.
        let daily = used.allSatisfy { p in (0..<perWeek).allSatisfy { s in factor(p, s) == factor(p, s % 96) } }
        let groups: [UInt8] = daily ? [0x7F] : [0x1F, 0x20, 0x40]
        // The summed lower bound of a set of slots (weighted by free-flow time).
        func bound(_ slots: [Int]) -> Double {
            var total = 0.0
            for p in used {
                var m = Double.infinity
                for s in slots { m = min(m, factor(p, s)) }
                total += weight[p] * m
            }
            return total
        }
        let week = bound(Array(0..<perWeek))
        // Trip windows: leaving every 30 minutes from 06:00 to 22:00, for 30 minutes, 1 and 2 hours.
        struct Window { var slots: [Int]; var weight: Double; var best: Double }
        var windows: [Window] = []
        for d in 0..<7 {
            for q in stride(from: 24, to: 88, by: 2) {
                for h in [2, 4, 8] {
                    let slots = Array((d * 96 + q)...(d * 96 + q + h))
                    windows.append(Window(slots: slots, weight: d < 5 ? 2 : 1, best: week))
                }
            }
        }
        for i in windows.indices { windows[i].best = week }
        let windowBounds = windows.map { bound($0.slots) }
        // Candidate bands: each group, starting on the hour, 3 to 8 hours long.
        var candidates: [(band: TimeBand, mask: SlotMask, value: Double)] = []
        for days in groups {
            for startHour in 5..<22 {
                for hours in [3, 4, 6, 8] {
                    let band = TimeBand(days: days, startQuarter: startHour * 4, endQuarter: (startHour + hours) * 4)
                    let slots = (0..<7).filter { days & (1 << $0) != 0 }.flatMap { d in (band.startQuarter..<band.endQuarter).map { d * 96 + $0 } }
                    candidates.append((band, band.slots, bound(slots)))
                }
            }
        }
        var chosen: [TimeBand] = []
        for _ in 0..<count {
            var bestGain = 0.0, bestIndex = -1
            for (c, candidate) in candidates.enumerated() {
                var gain = 0.0
                for (w, window) in windows.enumerated() where candidate.value > window.best && window.slots.allSatisfy(candidate.mask.contains) {
                    gain += window.weight * (min(candidate.value, windowBounds[w]) - window.best)
                }
                if gain > bestGain { bestGain = gain; bestIndex = c }
            }
            guard bestIndex >= 0 else { break }
            let pick = candidates.remove(at: bestIndex)
            chosen.append(pick.band)
            for w in windows.indices where windows[w].slots.allSatisfy(pick.mask.contains) {
                windows[w].best = max(windows[w].best, pick.value)
            }
        }
        return chosen
    }
}
