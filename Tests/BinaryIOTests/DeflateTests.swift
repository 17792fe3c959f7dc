import Testing
import Deflate
import GeoCore

/// libdeflate behind one module: every wrapping round-trips, and data that is damaged, or inflates
/// to another size than declared, is refused (a PBF blob or a stored watch must not be half read).
@Suite("Deflate") struct DeflateTests {
    static let text = Array(String(repeating: "Wayfinder routes on OpenStreetMap. ", count: 400).utf8)

    @Test(arguments: [DeflateFormat.raw, .zlib, .gzip])
    func roundTrips(format: DeflateFormat) throws {
        let c = try #require(DeflateCompressor(level: 6)), d = try #require(DeflateDecompressor())
        let packed = try #require(c.compress(Self.text, format))
        #expect(packed.count < Self.text.count / 10)
        #expect(try d.decompress(packed, format, size: Self.text.count).get() == Self.text)
        #expect(d.decompress(packed, format, maxBytes: Self.text.count + 10) == Self.text)
        #expect(c.compress([UInt8](), format).map { try? d.decompress($0, format, size: 0).get() } == [])
    }

    @Test func wrongSizesAndDamageAreFailures() throws {
        let c = try #require(DeflateCompressor(level: 1)), d = try #require(DeflateDecompressor())
        let packed = try #require(c.compress(Self.text, .zlib))
        guard case .failure(.tooLarge) = d.decompress(packed, .zlib, size: Self.text.count - 1) else { Issue.record("no tooLarge"); return }
        guard case .failure(.short(let n)) = d.decompress(packed, .zlib, size: Self.text.count + 1) else { Issue.record("no short"); return }
        #expect(n == Self.text.count)
        var rng = SplitMix64(seed: 3)
        let noise = (0..<500).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        guard case .failure = d.decompress(noise, .zlib, size: 4000) else { Issue.record("noise inflated"); return }
        #expect(d.decompress(packed, .gzip, maxBytes: 100_000) == nil)
    }
}
