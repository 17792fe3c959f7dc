import MapsAPI
import Routing

/// Per-query search statistics for `bench directions`' time-dependent kinds: what each query's
/// searches did (labels settled, arcs relaxed, potentials asked, which bounds they used), so that
/// the slow tail can be told apart from the rest.
struct BenchSearchStatistics {
    struct Row {
        var ms: Double
        var departureOffsetSeconds: Double
        var travelSeconds: Int
        var lengthMeters: Int
        var stats: TimeDependentRouting.Statistics
    }

    var rows: [Row] = []

    mutating func add(ms: Double, departureOffsetSeconds: Double, response: CalculateRouteResponse?, stats: TimeDependentRouting.Statistics) {
        let summary = response?.routes.first?.summary
        rows.append(Row(ms: ms, departureOffsetSeconds: departureOffsetSeconds, travelSeconds: summary?.travelTimeInSeconds ?? -1,
                        lengthMeters: summary?.lengthInMeters ?? -1, stats: stats))
    }

    static func json(_ s: TimeDependentRouting.Statistics) -> [String: Any] {
        ["searches": s.searches, "banded": s.banded, "live": s.live, "outlasted": s.outlasted, "settled": s.counts.settled,
         "relaxed": s.counts.relaxed, "potentialCalls": s.counts.potentialCalls, "pruned": s.counts.pruned]
    }

    /// A group of rows summed: share of searches with a band, live bounds, outlasting the band.
    static func summary(_ rows: ArraySlice<Row>) -> [String: Any] {
        var total = TimeDependentRouting.Statistics()
        for r in rows { total += r.stats }
        let n = Double(max(1, rows.count)), searches = Double(max(1, total.searches))
        return ["queries": rows.count,
                "msMean": BenchCommand.round3(rows.map(\.ms).reduce(0, +) / n),
                "settledMean": BenchCommand.round3(Double(total.counts.settled) / n),
                "relaxedMean": BenchCommand.round3(Double(total.counts.relaxed) / n),
                "potentialCallsMean": BenchCommand.round3(Double(total.counts.potentialCalls) / n),
                "prunedMean": BenchCommand.round3(Double(total.counts.pruned) / n),
                "travelSecondsMean": BenchCommand.round3(Double(rows.map(\.travelSeconds).reduce(0, +)) / n),
                "bandedShare": BenchCommand.round3(Double(total.banded) / searches),
                "liveShare": BenchCommand.round3(Double(total.live) / searches),
                "outlastedShare": BenchCommand.round3(Double(total.outlasted) / searches)]
    }

    /// Percentiles of the counts, the slowest 1 % against the rest, and every slowest query.
    var json: [String: Any] {
        guard !rows.isEmpty else { return [:] }
        let bySpeed = rows.sorted { $0.ms < $1.ms }
        let tail = max(1, rows.count / 100)
        return ["settled": BenchCommand.percentiles(rows.map { Double($0.stats.counts.settled) }),
                "relaxed": BenchCommand.percentiles(rows.map { Double($0.stats.counts.relaxed) }),
                "potentialCalls": BenchCommand.percentiles(rows.map { Double($0.stats.counts.potentialCalls) }),
                "fastest99Percent": Self.summary(bySpeed.dropLast(tail)),
                "slowest1Percent": Self.summary(bySpeed.suffix(tail)),
                "slowestQueries": bySpeed.suffix(tail).reversed().map { r -> [String: Any] in
                    var row = Self.json(r.stats)
                    row["ms"] = BenchCommand.round3(r.ms)
                    row["departureAfter0600Seconds"] = r.departureOffsetSeconds
                    row["travelSeconds"] = r.travelSeconds
                    row["lengthMeters"] = r.lengthMeters
                    return row
                }]
    }
}
