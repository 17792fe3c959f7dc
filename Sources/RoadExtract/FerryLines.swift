import GeoCore
import OSMPBF

/// Which `route=ferry` ways are transport from one shore to another, and what a tagged crossing
/// time is worth.
///
/// Which modes a ferry carries is read by each profile's access keys (`motor_vehicle`/`motorcar`,
/// `foot`, `bicycle`), every mode when none is tagged, as OSRM's and Valhalla's profiles do. On top
/// of that, a sightseeing line carries nobody anywhere: a way tagged `tourism=*`, named like a
/// tour or cruise, running in a loop, or whose tagged duration is slower than walking along it
/// (hours for a few kilometres) is not a crossing for any mode.
enum FerryLines {
    /// Words in a ferry's name (lower case) that mark a sightseeing cruise rather than a crossing.
    static let tourWords = ["tour", "cruise", "sightseeing", "excursion", "boat trip", "rundfahrt", "croisière",
                            "crociera", "cruzeiro", "passeio", "risteily", "kiertoajelu", "rondvaart", "sejltur"]

    /// A tagged crossing slower than this over the line's length (and longer than `slowMinimumSeconds`)
    /// is a cruise with stops, not a crossing.
    static let slowestKmh = 3.0
    static let slowMinimumSeconds = 1800.0
    /// A tagged duration faster than this is a tagging slip (minutes written as hours, say): the
    /// profile's ferry speed is used instead.
    static let fastestKmh = 80.0

    static func isSightseeing(_ tags: Tags) -> Bool {
        if let tourism = tags["tourism"], tourism != "no" { return true }
        guard let name = (tags["name"] ?? tags["name:en"])?.lowercased() else { return false }
        return tourWords.contains { name.contains($0) }
    }

    /// What the line's geometry says of a ferry way: `.drop` for a loop or a crawl, `.ignoreDuration`
    /// for an impossible speed, `.keep` otherwise.
    enum Judgement: Equatable { case keep, ignoreDuration, drop }

    static func judge(lengthMeters: Double, isLoop: Bool, durationSeconds: Double?) -> Judgement {
        if isLoop { return .drop }
        guard let seconds = durationSeconds, seconds > 0, lengthMeters > 0 else { return .keep }
        let kmh = lengthMeters / 1000 / (seconds / 3600)
        if seconds >= slowMinimumSeconds && kmh < slowestKmh { return .drop }
        if kmh > fastestKmh { return .ignoreDuration }
        return .keep
    }
}

extension Extractor {
    /// Applies `FerryLines.judge` to every ferry way once its nodes' positions are known.
    func vetFerries() {
        for p in verdicts.indices {
            for w in verdicts[p].indices {
                guard let verdict = verdicts[p][w], verdict.flags.contains(.ferry) else { continue }
                let range = wayRefOffsets[w]..<wayRefOffsets[w + 1]
                var meters = 0.0
                var previous: Int32 = -1
                for k in range {
                    let n = wayRefNode[k]
                    if n >= 0, previous >= 0 {
                        meters += Geodesy.distanceMeters(nodeCoordinates[Int(previous)], nodeCoordinates[Int(n)])
                    }
                    previous = n
                }
                let isLoop = range.count > 2 && wayRefs[range.lowerBound] == wayRefs[range.upperBound - 1]
                switch FerryLines.judge(lengthMeters: meters, isLoop: isLoop, durationSeconds: verdict.durationSeconds) {
                case .keep: break
                case .ignoreDuration: verdicts[p][w]?.durationSeconds = nil
                case .drop: verdicts[p][w] = nil
                }
            }
        }
    }
}
