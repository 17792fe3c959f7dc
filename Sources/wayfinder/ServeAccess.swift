import Foundation
import MapsServer
import MapsAPI

/// `serve`'s access options: API keys, the operator credential, quotas and caps.
enum ServeAccess {
    static let valueOptions = ["api-keys", "operator-token-file", "max-watches", "max-watches-per-key", "max-streams", "max-streams-per-key",
                               "max-requests-per-minute", "max-matrix-cells-per-minute", "max-matrix-cells-per-minute-per-key",
                               "max-probe-points-per-minute", "max-probe-points-per-minute-per-key"]

    static let usage: String = {
        let d = ServerCaps()
        return """
          --api-keys FILE         require an API key (key=… or X-API-Key) on the APIs and tiles: one key per
                                  line, "KEY [REQUESTS_PER_MINUTE] [operator]" (limit default 600); 403 without
                                  a valid key, 429 with Retry-After beyond the limit. A key marked operator may
                                  also write, sent as Authorization: Bearer KEY. Off by default. The web app
                                  forwards the key of its own URL (/?key=…)
          --operator-token-file FILE
                                  the operator credential (one token, 16 characters or more): writing (traffic
                                  speeds, closures, probes) needs Authorization: Bearer TOKEN. Without any
                                  operator credential, writing is open only on loopback without API keys, and
                                  refused otherwise
          --max-watches N         open time-to-leave watches in all (default \(d.openWatches))
          --max-watches-per-key N open watches of one key, or of everyone without keys (default \(d.openWatchesPerKey))
          --max-streams N         open event streams in all (default \(d.eventStreams))
          --max-streams-per-key N open event streams of one key (default \(d.eventStreamsPerKey))
          --max-requests-per-minute N
                                  requests a minute in all (default: no cap; each key has its own limit)
          --max-matrix-cells-per-minute N, --max-matrix-cells-per-minute-per-key N
                                  matrix cells (/table/v1, Matrix v2 and its async jobs) a minute in all and
                                  per key (default \(d.matrixCellsPerMinute), \(d.matrixCellsPerMinutePerKey))
          --max-probe-points-per-minute N, --max-probe-points-per-minute-per-key N
                                  GPS probe points a minute in all and per key (default \(d.probePointsPerMinute), \(d.probePointsPerMinutePerKey))
                                  Beyond a key's quota: 429 with Retry-After; beyond a server cap: 503 with
                                  Retry-After. /health shows the roles and every cap
        """
    }()

    /// Reads the options into `options`; `host` is the address the server will listen on.
    static func read(_ a: inout Arguments, host: String, into options: inout MapsApplication.Options) throws {
        func int(_ name: String) throws -> Int? { try a.int(name, in: 1...1_000_000_000) }
        var caps = ServerCaps()
        if let v = try int("max-watches") { caps.openWatches = v }
        if let v = try int("max-watches-per-key") { caps.openWatchesPerKey = v }
        if let v = try int("max-streams") { caps.eventStreams = v }
        if let v = try int("max-streams-per-key") { caps.eventStreamsPerKey = v }
        if let v = try int("max-requests-per-minute") { caps.requestsPerMinute = v }
        if let v = try int("max-matrix-cells-per-minute") { caps.matrixCellsPerMinute = v }
        if let v = try int("max-matrix-cells-per-minute-per-key") { caps.matrixCellsPerMinutePerKey = v }
        if let v = try int("max-probe-points-per-minute") { caps.probePointsPerMinute = v }
        if let v = try int("max-probe-points-per-minute-per-key") { caps.probePointsPerMinutePerKey = v }
        options.caps = caps
        var keys: APIKeys?
        if let path = a.value("api-keys") {
            do { keys = try APIKeys.load(path: path) } catch { throw CommandFailure("--api-keys: \(error)", exitCode: ExitCode.dataError) }
        }
        var token: String?
        if let path = a.value("operator-token-file") {
            do { token = try AccessPolicy.loadOperatorToken(path: path) } catch {
                throw CommandFailure("--operator-token-file: \(error)", exitCode: ExitCode.dataError)
            }
        }
        options.access = AccessPolicy(keys: keys, operatorToken: token, loopbackOnly: AccessPolicy.isLoopback(host))
    }

    /// What start-up says about writing.
    static func announcement(_ access: AccessPolicy) -> String {
        switch access.writing {
        case .operatorCredential: "wayfinder: writing (traffic, probes) needs an operator credential (Authorization: Bearer)"
        case .openOnLoopback: "wayfinder: writing (traffic, probes) is open to local clients: the server listens on loopback without API keys"
        case .disabled: "wayfinder: writing (traffic, probes) is disabled: the server has API keys or listens beyond loopback, and no "
            + "operator credential (--operator-token-file, or a key marked operator); `wayfinder traffic` still writes to the dataset"
        }
    }
}
