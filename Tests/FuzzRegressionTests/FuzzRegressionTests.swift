import Foundation
import Testing
import FuzzHarness
import OSMPBF

/// One saved fuzz input: a seed from `Fuzz/corpus/<target>/` or a found input from `Fuzz/regressions/<target>/`.
struct FuzzInput: Sendable, CustomTestStringConvertible {
    var target: String
    var path: String
    var name: String { (path as NSString).lastPathComponent }
    var folder: String { path.contains("/regressions/") ? "regressions" : "corpus" }
    var testDescription: String { "\(folder)/\(target)/\(name)" }

    static let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz").path

    static func all(_ target: String) -> [FuzzInput] {
        ["corpus", "regressions"].flatMap { folder in
            let dir = fuzzRoot + "/" + folder + "/" + target
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { FuzzInput(target: target, path: dir + "/" + $0) }
        }
    }

    func run<O: FuzzOutcome>(_ harness: (UnsafeRawBufferPointer) -> O) throws -> O {
        let bytes = try #require(FuzzInputs.read(path), "cannot read \(path)")
        return bytes.withUnsafeBytes { harness($0) }
    }
}

/// Every saved fuzz input goes through the same harness the fuzz targets use (`scripts/fuzz.sh`),
/// so a crash, hang or broken promise found once stays fixed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test("every fuzz target has a seed corpus, and the saved inputs stay small")
    func corpora() {
        var total = 0
        for target in FuzzHarness.targets {
            let inputs = FuzzInput.all(target)
            #expect(!inputs.filter { $0.folder == "corpus" }.isEmpty, "Fuzz/corpus/\(target) is empty")
            total += inputs.compactMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int }.reduce(0, +)
        }
        #expect(total < 1 << 20, "saved fuzz inputs take \(total) bytes; keep them under 1 MiB")
    }

    /// Seeds named `accept-….pbf` must read; `reject-KIND-at-OFFSET-….pbf` must fail with that
    /// kind of `PBFError` for the block at that byte offset; other inputs must only be handled.
    @Test("PBF reader", arguments: FuzzInput.all("pbf"))
    func pbf(_ input: FuzzInput) throws {
        let outcome = try input.run(FuzzHarness.pbf)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        let parts = input.name.split(separator: "-")
        if input.name.hasPrefix("accept-") {
            #expect(outcome.error == nil, "\(outcome.summary)")
            #expect(outcome.summary == Self.accepted[input.name], "\(input.name)")
        } else if input.name.hasPrefix("reject-"), parts.count > 4, parts[2] == "at", let offset = Int(parts[3]) {
            let error = try #require(outcome.error, "read without error: \(outcome.summary)")
            #expect("\(error.kind)" == parts[1], "\(error)")
            #expect(error.offset == offset, "\(error)")
            #expect(error.description.contains("at byte \(offset)"), "\(error)")
        }
    }

    /// What each accepted seed reads as: a reader that skipped blocks or lost elements differs.
    /// (The raw and zlib copies of one file read alike; the unknown block is skipped, not counted.)
    static let accepted: [String: String] = [
        "accept-extreme-coordinates-clamped.pbf": "read 1 blocks: 2 nodes, 0 ways, 0 relations",
        "accept-granularity-and-offsets.pbf": "read 1 blocks: 3 nodes, 0 ways, 0 relations",
        "accept-header-only.pbf": "read 0 blocks: 0 nodes, 0 ways, 0 relations",
        "accept-huge-string-table-zlib-bomb.pbf": "read 1 blocks: 0 nodes, 0 ways, 0 relations",
        "accept-minimal-raw.pbf": "read 1 blocks: 3 nodes, 1 ways, 1 relations",
        "accept-minimal-zlib.pbf": "read 1 blocks: 3 nodes, 1 ways, 1 relations",
        "accept-monaco-tiny-raw-sparse-nodes.osm.pbf": "read 3 blocks: 140 nodes, 30 ways, 3 relations",
        "accept-monaco-tiny-with-metadata.osm.pbf": "read 2 blocks: 53 nodes, 8 ways, 0 relations",
        "accept-monaco-tiny-zlib.osm.pbf": "read 3 blocks: 140 nodes, 30 ways, 3 relations",
        "accept-no-string-table.pbf": "read 1 blocks: 0 nodes, 1 ways, 0 relations",
        "accept-unknown-block-type-skipped.pbf": "read 1 blocks: 3 nodes, 1 ways, 1 relations",
    ]

    @Test("traffic CSV reader", arguments: FuzzInput.all("csv"))
    func csv(_ input: FuzzInput) throws {
        let outcome = try input.run(FuzzHarness.csv)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    @Test("time, duration, coordinate, polyline and request-target parsers", arguments: FuzzInput.all("parsers"))
    func parsers(_ input: FuzzInput) throws {
        let outcome = try input.run(FuzzHarness.parsers)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    }

    @Test("the request harness's application routes, so the request inputs test something")
    func requestFixtureRoutes() {
        let outcome = Array("GET /routing/1/calculateRoute/43.7350,7.4205:43.7365,7.4240/json".utf8).withUnsafeBytes {
            FuzzHarness.request($0)
        }
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        #expect(outcome.status == 200, "\(outcome.summary)")
    }

    /// Serialized: requests share one application and the harness clears its traffic and watches after each.
    @Test("requests to every endpoint", .serialized, arguments: FuzzInput.all("request"))
    func request(_ input: FuzzInput) throws {
        let outcome = try input.run(FuzzHarness.request)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        if let status = outcome.status { #expect(status < 500, "\(outcome.summary)") }
    }
}
