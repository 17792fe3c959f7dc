#if canImport(Glibc)
import Glibc
#endif
public import RoadNetwork
public import BinaryIO

/// A synthetic historical speed file for benchmarks — **not measured data**: every directed
/// segment of a graph with 24 hourly speeds, so that weekly profiles are in force on every
/// segment (the worst case for time-dependent routing, as for an operator with full historical
/// data). Never loaded by default; `wayfinder generate --speed-profiles` writes it and an operator
/// (or bench/run.py) imports it like any profile file.
///
/// Each arc gets one of `patterns` daily shapes (as commercial traffic patterns come from a
/// library of shapes): a morning and an evening peak of random hour, width and severity and a
/// midday plateau, scaled by road class (arterials and motorways congest most, residential streets
/// least). A segment's speed in an hour is its free-flow speed divided by the shape's factor.
public enum SyntheticSpeedProfiles {
    public struct Summary: Sendable {
        public var lines: Int
        public var patterns: Int
        public var bytes: Int
        public var maximumFactor: Double
    }

    /// The header comment every generated file starts with.
    public static let label = "# SYNTHETIC BENCHMARK INPUT, not measured traffic: wayfinder generate --speed-profiles"

    /// The travel-time factor (≥ 1) of each pattern in each hour.
    static func patternFactors(count: Int, seed: UInt64) -> [[Double]] {
        var state = seed &+ 0x5EED
        func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let am = 6.5 + 2.5 * unit(), amWidth = 0.7 + 0.9 * unit(), amSeverity = 1.2 * unit()
            let pm = 15.5 + 3 * unit(), pmWidth = 0.8 + 1.1 * unit(), pmSeverity = 1.2 * unit()
            let midday = 0.35 * unit()
            return (0..<24).map { h in
                let t = Double(h) + 0.5
                func bump(_ centre: Double, _ width: Double) -> Double { exp(-((t - centre) * (t - centre)) / (2 * width * width)) }
                let plateau = t > 9.5 && t < 15.5 ? midday : 0
                return 1 + amSeverity * bump(am, amWidth) + pmSeverity * bump(pm, pmWidth) + plateau
            }
        }
    }

    /// How strongly a road class feels congestion (1 = the pattern in full).
    static func classWeight(_ c: RoadClass) -> Double {
        switch c {
        case .motorway, .motorwayLink, .trunk, .trunkLink, .primary, .primaryLink, .secondary, .secondaryLink: 1
        case .tertiary, .tertiaryLink, .unclassified: 0.7
        default: 0.35
        }
    }

    /// Writes the file (to a temporary name, then renamed).
    public static func write(graph: RoadGraph, seed: UInt64, patterns: Int = 512, to path: String) throws(FileIOError) -> Summary {
        let shapes = patternFactors(count: patterns, seed: seed)
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .errno(temporary, "cannot create") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 22)
        var written = 0, maximum = 1.0
        func flush() throws(FileIOError) {
            let result = buffer.withUnsafeBytes { raw in Result { () throws(FileIOError) in try FileIO.writeAll(fd: fd, raw, path: temporary) } }
            try result.get()
            written += buffer.count
            buffer.removeAll(keepingCapacity: true)
        }
        func append(_ text: String) { buffer.append(contentsOf: text.utf8) }
        func appendInt(_ v: Int64) {
            if v == 0 { buffer.append(48); return }
            var digits: [UInt8] = []
            var x = v
            while x > 0 { digits.append(UInt8(48 + x % 10)); x /= 10 }
            buffer.append(contentsOf: digits.reversed())
        }
        do throws(FileIOError) {
            append(label + "; seed \(seed), \(patterns) daily patterns, 24 hourly speeds (km/h) per directed segment\n")
            let keys = graph.segmentKeys
            for k in 0..<keys.count {
                let a = keys.arc[k].index
                let ms = max(1, Double(graph.arcDurationMs[a]))
                let freeFlowKmh = Double(graph.lengthCm(of: ArcID(a))) / 100 / (ms / 1000) * 3.6
                var h = UInt64(a) &* 0x9E37_79B9_7F4A_7C15 ^ seed
                h ^= h >> 29
                let shape = shapes[Int(h % UInt64(patterns))]
                let weight = classWeight(graph.wayClass[graph.way(of: ArcID(a)).index])
                appendInt(keys.from(k)); buffer.append(44)
                appendInt(keys.to(k))
                for factor in shape {
                    let f = 1 + (factor - 1) * weight
                    maximum = max(maximum, f)
                    buffer.append(44)
                    appendInt(Int64(min(SegmentSpeedCSV.maxSpeedKmh, max(1, (freeFlowKmh / f).rounded()))))
                }
                buffer.append(10)
                if buffer.count >= 1 << 22 { try flush() }
            }
            try flush()
            guard fsync(fd) == 0 else { throw .errno(temporary, "cannot sync") }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .errno(path, "cannot rename into place")
        }
        return Summary(lines: graph.segmentKeys.count, patterns: patterns, bytes: written, maximumFactor: maximum)
    }
}
