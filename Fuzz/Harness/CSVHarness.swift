public import Traffic

/// The result of reading one input as each of the three traffic CSV formats.
public struct CSVOutcome: FuzzOutcome {
    /// Entries read, or the error's text, per format.
    public var speeds: Result<Int, TrafficError>
    public var closures: Result<Int, TrafficError>
    public var profiles: Result<Int, TrafficError>
    public var problems: [String] = []

    public var summary: String {
        func text(_ r: Result<Int, TrafficError>) -> String {
            switch r {
            case .success(let n): "\(n) entries"
            case .failure(let e): "error (\(e.description.prefix(100)))"
            }
        }
        return "speeds: \(text(speeds)); closures: \(text(closures)); profiles: \(text(profiles))"
    }
}

extension FuzzHarness {
    /// Parses `bytes` as a live speed file, a closure file and a weekly profile file
    /// (`SegmentSpeedCSV`), and checks every accepted value is in the documented range and every
    /// error names a line that exists.
    public static func csv(_ bytes: UnsafeRawBufferPointer) -> CSVOutcome {
        let input = Array(bytes)
        let lines = input.isEmpty ? 0 : input.count { $0 == 10 } + (input.last == 10 ? 0 : 1)
        var problems: [String] = []
        func check(_ error: TrafficError, _ format: String) {
            if let line = error.line, !(1...max(1, lines)).contains(line) {
                problems.append("\(format): error names line \(line) of \(lines): \(error)")
            }
            if error.reason.isEmpty { problems.append("\(format): error without a reason") }
        }
        func idsOK(_ from: Int64, _ to: Int64) -> Bool { from > 0 && to > 0 }

        let speeds: Result<Int, TrafficError>
        do {
            let entries = try SegmentSpeedCSV.parseSpeeds(input, source: "fuzz")
            for e in entries {
                guard idsOK(e.from, e.to), let s = e.speedKmh, s.isFinite, s >= 0, s <= SegmentSpeedCSV.maxSpeedKmh else {
                    problems.append("speeds: accepted \(e)")
                    break
                }
            }
            speeds = .success(entries.count)
        } catch {
            check(error, "speeds")
            speeds = .failure(error)
        }

        let closures: Result<Int, TrafficError>
        do {
            let entries = try SegmentSpeedCSV.parseClosures(input, source: "fuzz")
            if let bad = entries.first(where: { !idsOK($0.from, $0.to) || $0.speedKmh != nil }) {
                problems.append("closures: accepted \(bad)")
            }
            closures = .success(entries.count)
        } catch {
            check(error, "closures")
            closures = .failure(error)
        }

        let profiles: Result<Int, TrafficError>
        do {
            let parsed = try SegmentSpeedCSV.parseProfiles(input, source: "fuzz")
            for i in 0..<parsed.count {
                let speeds = parsed.weekSpeeds(i)
                guard idsOK(parsed.from[i], parsed.to[i]), speeds.count == 672,
                      speeds.allSatisfy({ $0.isFinite && $0 > 0 && $0 <= SegmentSpeedCSV.maxSpeedKmh }) else {
                    problems.append("profiles: accepted \(parsed.from[i]),\(parsed.to[i]) with speeds out of range")
                    break
                }
            }
            profiles = .success(parsed.count)
        } catch {
            check(error, "profiles")
            profiles = .failure(error)
        }
        return CSVOutcome(speeds: speeds, closures: closures, profiles: profiles, problems: problems)
    }
}
