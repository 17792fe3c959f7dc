import MapsTestSupport
import OSMPBF

/// A drawn map for "which tag makes a road quicker": a–b is 800 m straight; a–c–d–b goes round
/// it, 1 400 m, with no junction on the way.
enum RoundTheBlock {
    static let map = """
        a - - - - - - - b
        |               |
        |               |
        c - - - - - - - d
        """

    /// The block with `direct` tags on a–b and `round` on the three ways round it.
    static func scenario(direct: Tags, round: Tags = ["highway": "residential"]) throws -> Scenario {
        try Scenario(map, ways: ["ab": direct, "ac": round, "cd": round, "db": round])
    }
}
