#if canImport(Glibc)
import Glibc
#endif

/// How a bias point (TomTom's and Photon's `lat`/`lon`, Nominatim's `viewbox` centre) orders results.
///
/// A result at distance d gains `distanceWeight · 2^(−d / halfDistanceMeters)`: a place at the bias
/// point gains the full weight, one `halfDistanceMeters` away half of it, four times as far a
/// sixteenth. Its importance (0…1: a city over a suburb, a major road over a lane, a station over a
/// shop) adds `importanceWeight · importance`. Text relevance comes first (an exact name scores up to
/// about 1.6, a partial one much less), so distance orders places the text matches alike: typing
/// "Mannerh" in a whole-country index gives the Mannerheimintie nearest the user first.
///
/// `prominence` is Photon's `location_bias_scale` (0…1, default 0.2): how much importance counts
/// against distance. At 0.2 the weights are 0.8 (distance) and 0.5 (importance); at 0 distance alone
/// counts (1.0, 0); at 1 importance alone (0, 2.5). Without a bias point importance keeps its weight 0.5.
public struct LocationBias: Sendable, Equatable {
    public var halfDistanceMeters: Double
    public var prominence: Double

    public init(halfDistanceMeters: Double = 2_000, prominence: Double = 0.2) {
        self.halfDistanceMeters = max(1, halfDistanceMeters)
        self.prominence = min(max(prominence, 0), 1)
    }

    /// Photon's `zoom`: the half distance of its view, 250 m × 2^(18 − zoom) (zoom 16: 1 km; zoom 12: 16 km).
    public static func halfDistance(photonZoom zoom: Int) -> Double {
        250 * Double(1 << max(0, min(18, 18 - zoom)))
    }

    var distanceWeight: Double { 1.0 - prominence }

    func importanceWeight(hasBias: Bool) -> Double { hasBias ? 2.5 * prominence : 0.5 }

    func distanceScore(_ meters: Double) -> Double {
        distanceWeight * exp2(-meters / halfDistanceMeters)
    }
}
