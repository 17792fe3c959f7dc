/// SplitMix64 (Steele, Lea and Flood), the one seeded generator of the project: tests, benchmarks
/// and the synthetic network generator use it, so a printed seed reproduces a run anywhere.
/// (It lives at the bottom of the module graph, with the geometry every one of them uses.)
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<1`.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform in `0..<bound` (bound > 0).
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }
}
