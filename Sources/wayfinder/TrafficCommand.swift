import Foundation
import MapsService
import MapsAPI
import Traffic
import BinaryIO

enum TrafficCommand {
    static let usage = """
    USAGE: wayfinder traffic DATASET_DIR <action> [FILE] [--expires-in DURATION]

    Live and historical traffic for a dataset. Updates are written to DATASET_DIR/state/traffic,
    where a running `wayfinder serve` picks them up within a second.

    ACTIONS:
      apply FILE.csv      live speeds, OSRM's segment speed format:
                          from_osm_node_id,to_osm_node_id,speed_kmh[,rate]
      close FILE.csv      road closures: from_osm_node_id,to_osm_node_id
      profiles FILE.csv   historical weekly speeds per segment: from,to then 24, 96, 168 or 672
                          speeds in km/h (hourly, quarter-hourly for a day, hourly for a week, or
                          quarter-hourly for a week, Monday 00:00 first, local time)
      status              the live updates in force, as JSON
      clear               remove every live update

    OPTIONS:
      --expires-in DURATION   how long a live update holds: 30m, 2h, 90s (default 60m);
                              afterwards historical speeds return
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["expires-in"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count >= 2 else { throw UsageError("give a dataset folder and an action") }
        let action = a.positional[1]
        let expiresText = a.value("expires-in") ?? "60m"
        try a.checkAllUsed()
        guard let expires = TimeInput.duration(expiresText) else {
            throw UsageError("--expires-in \"\(expiresText)\" is not a duration such as 30m, 2h or 90s")
        }
        let service = try Commands.openService(a.positional[0])
        switch action {
        case "apply", "close":
            guard a.positional.count == 3 else { throw UsageError("\(action) needs a CSV file") }
            let path = a.positional[2]
            let bytes: [UInt8]
            do { bytes = try FileIO.readAll(path) } catch { throw CommandFailure("\(error)", exitCode: ExitCode.noInput) }
            do {
                let report = try service.applyTraffic(bytes, kind: action == "apply" ? .speeds : .closures,
                                                      expiresInSeconds: expires, source: (path as NSString).lastPathComponent)
                print(try JSONOutput.encode(report))
            } catch let error as APIError {
                throw CommandFailure(error.message, exitCode: ExitCode.dataError)
            }
        case "profiles":
            guard a.positional.count == 3 else { throw UsageError("profiles needs a CSV file") }
            let path = a.positional[2]
            do {
                try service.trafficStore.saveHistorical(try FileIO.readAll(path, limit: 1 << 34), source: (path as NSString).lastPathComponent)
            } catch let error as TrafficError {
                throw CommandFailure(error.description, exitCode: ExitCode.dataError)
            }
            print("saved historical speeds for \(service.trafficStore.historicalProfiles()?.count ?? 0) segments")
        case "status":
            print(try JSONOutput.encode(service.trafficStatus()))
        case "clear":
            service.trafficStore.clearLive()
            print("cleared all live updates")
        default:
            throw UsageError("unknown action \"\(action)\"; choose apply, close, profiles, status or clear")
        }
    }
}
