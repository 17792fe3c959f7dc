import Foundation
import Testing
import MapsTestSupport
import WayfinderKit

/// The three seed examples, run as the built executables against a real server on loopback.
@Suite("Examples run against a real server", .enabled(if: Fixtures.monacoAvailable, "run scripts/setup.sh for the Monaco sample"),
       .timeLimit(.minutes(2)))
struct ExampleTests {
    let server: LoopbackMapsServer

    init() async throws { server = try #require(await LoopbackMapsServer.shared(.monaco), "the Monaco server did not start") }

    struct Run {
        var status: Int32
        var output: String
    }

    /// The example's executable beside the test bundle (`.build…/debug/`).
    static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        if let arg0 = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: arg0).resolvingSymlinksInPath()
            candidates += [url.deletingLastPathComponent(), url.deletingLastPathComponent().deletingLastPathComponent()]
        }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for build in [".build-sdk", ".build"] { candidates.append(Fixtures.packageRoot.appendingPathComponent("\(build)/debug")) }
        for dir in candidates {
            let url = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw ExampleMissing(name: name, searched: candidates.map(\.path))
    }

    struct ExampleMissing: Error, CustomStringConvertible {
        var name: String
        var searched: [String]
        var description: String { "\(name) is not built (looked in \(searched.joined(separator: ", ")))" }
    }

    /// Runs the example with `arguments`, killing it after `seconds`. Waiting and reading happen
    /// on GCD threads, never blocking the pool that runs the async tests.
    static func run(_ name: String, _ arguments: [String], seconds: Double = 60) async throws -> Run {
        let process = Process()
        process.executableURL = try executable(name)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let output = pipe.fileHandleForReading.readDataToEndOfFile()
                if exited.wait(timeout: .now() + seconds) == .timedOut {
                    process.terminate()
                    exited.wait()
                }
                continuation.resume(returning: Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self)))
            }
        }
    }

    /// Runs the example against the test server.
    func run(_ name: String, _ arguments: [String] = []) async throws -> Run {
        try await Self.run(name, [server.url.absoluteString] + arguments)
    }

    @Test("example-directions: local search with phone numbers, then directions with steps")
    func directions() async throws {
        let run = try await run("example-directions", ["--from", "43.7384,7.4246", "--search", "restaurant"])
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("8 places for \"restaurant\"") == true, "\(run.output)")
        #expect(lines.contains { $0.contains(" | +377") }, "a phone number is listed")
        #expect(lines.contains { $0.hasPrefix("Route 1: ") })
        #expect(lines.contains { $0.hasPrefix("  - Head ") })
        #expect(lines.contains { $0.contains("You have arrived") })
    }

    @Test("example-along-route: reverse geocoding, route, the three buttons, add to my route")
    func alongRoute() async throws {
        let run = try await run("example-along-route")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Departure: "))
        #expect(run.output.contains("Destination: "))
        #expect(run.output.contains("Route: "))
        for button in ["gas station", "restaurant", "ATM"] { #expect(run.output.contains("\n\(button): "), "\(button)") }
        #expect(run.output.contains("Added "), "\(run.output)")
        #expect(run.output.contains(", 2 legs"))
    }

    @Test("example-along-route says plainly when nothing is found")
    func alongRouteNothingFound() async throws {
        let run = try await run("example-along-route", ["--search", "zzqxv unicorn stable"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("zzqxv unicorn stable: none within a 300 s detour"))
        #expect(run.output.contains("Nothing to add to the route."))
    }

    @Test("the examples explain their usage and fail cleanly without a server")
    func usageAndErrors() async throws {
        for name in ["example-directions", "example-along-route", "example-time-to-leave"] {
            let run = try await Self.run(name, ["http://127.0.0.1:9"])
            #expect(run.status == 1, "\(name): \(run.output)")
            #expect(run.output.contains("error: server unavailable"), "\(name): \(run.output)")
            let usage = try await Self.run(name, [])
            #expect(usage.status == 64 && usage.output.hasPrefix("usage: \(name) SERVER_URL"), "\(name): \(usage.output)")
        }
    }

    @Test("example-time-to-leave: a watch and its updates")
    func timeToLeave() async throws {
        let run = try await run("example-time-to-leave", ["--arrive-in", "40", "--prep", "5", "--updates", "1"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("Watch "))
        #expect(run.output.contains("[plan]"))
        #expect(run.output.contains("Stopped watching"))
    }
}
