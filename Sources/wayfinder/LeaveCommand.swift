import Foundation
import MapsAPI
import MapsService
import TimeToLeave
import Synchronization
import RoadNetwork
import RoutePlanning

enum LeaveCommand {
    static let usage = """
    USAGE: wayfinder leave DATASET_DIR --from PLACE|LAT,LON --to PLACE|LAT,LON --arrive-at TIME [options]

    Time to leave: counts down to the latest moment to set off and still arrive by TIME, re-plans
    every minute against live traffic, prints each change ("Route recalculated due to change in
    traffic: 120 sec — Leave 2 min earlier"), and rings the terminal bell when it is time to go.
    PLACE is looked up by name in the dataset's places ("Kamppi"); LAT,LON is taken as given.
    Exit status: 0 when it is time to leave (or with --once a plan was made), 1 when no route can
    arrive by TIME (the seed's message) or the arrival time passed, 64 for bad arguments.

    OPTIONS:
      --from PLACE|LAT,LON    where you leave from (required)
      --to PLACE|LAT,LON      where you must be (required)
      --via PLACE|LAT,LON     a place to pass on the way; repeat for more, in order
      --arrive-at TIME        2026-12-01T08:30:00+02:00, 2026-12-01T08:30 (the dataset's local
                              time), 08:30 (the next such time) or +25m (from now) (required)
      --mode MODE             car (default), taxi, bicycle, pedestrian
      --type TYPE             fastest (default), shortest, eco, thrilling
      --avoid LIST            comma-separated: tollRoads,motorways,ferries,unpavedRoads,alreadyUsedRoads
      --prep DURATION         time to get ready before leaving: 10m, 1h30m, 90s, 45 (minutes); default 0
      --no-traffic            ignore live traffic (free flow and weekly speed profiles only)
      --demo-congestion       for demos: add the invented weekly congestion by road class (not data)
      --once                  print the plan and exit (for scripts)
      --format FORMAT         text (default) or json (the watch document; live: one JSON line per event)
      --interval SECONDS      re-plan this often (default 60)
      --threshold SECONDS     announce departure moves of at least this much (default 30)
      --traffic-replay FILE   play recorded traffic from now: CSV offset_seconds,from_osm_node_id,to_osm_node_id,speed_kmh
      --make-replay FILE      with --once: also write a demo replay that jams the planned route at +30 s
                              and clears it at +150 s (for `serve --traffic-replay` or --traffic-replay)
      --benchmark             instead: measure re-plan cost and routing next to 1,000 watches (JSON)
      --watches N             watches for --benchmark (default 1000)
      --help                  show this help
    """

    static func run(_ args: [String]) throws {
        var a = try Arguments(args, valueOptions: ["from", "to", "via", "arrive-at", "mode", "type", "avoid", "prep", "format",
                                                   "interval", "threshold", "traffic-replay", "watches", "make-replay"])
        if a.flag("help") { print(usage); return }
        guard a.positional.count == 1 else { throw UsageError("give exactly one dataset folder") }
        if a.flag("benchmark") {
            let count = try a.int("watches", in: 1...100_000) ?? 1000
            let timeModel = TimeModelSettings(demoCongestion: a.flag("demo-congestion"))
            try a.checkAllUsed()
            let maps = try Commands.openService(a.positional[0], timeModel: timeModel)
            let folder = NSTemporaryDirectory() + "wayfinder-leave-bench-\(getpid())"
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let report = try WatchBenchmark.run(planning: maps.planning, dataset: maps.dataset.manifest.source.name, watchCount: count,
                                                storeFolder: folder)
            print(try JSONOutput.encode(report))
            return
        }
        guard let from = a.value("from") else { throw UsageError("--from PLACE or LAT,LON is required, e.g. --from Kamppi") }
        guard let to = a.value("to") else { throw UsageError("--to PLACE or LAT,LON is required, e.g. --to 60.1719,24.9414") }
        guard let arriveAt = a.value("arrive-at") else { throw UsageError("--arrive-at TIME is required, e.g. --arrive-at 08:30") }
        let vias = a.values("via")
        var prep = 0.0
        if let text = a.value("prep") {
            guard let seconds = TimeInput.duration(text), seconds <= 86_400 else {
                throw UsageError("--prep \(text) is not a duration up to a day (10m, 1h30m, 90s)")
            }
            prep = seconds
        }
        var configuration = WatchConfiguration()
        if let text = a.value("interval") {
            guard let v = Double(text), v >= 1, v <= 3600 else { throw UsageError("--interval must be 1...3600 seconds") }
            configuration.replanIntervalSeconds = v
        }
        if let text = a.value("threshold") {
            guard let v = Double(text), v >= 0, v <= 3600 else { throw UsageError("--threshold must be 0...3600 seconds") }
            configuration.thresholdSeconds = v
        }
        let format = a.value("format") ?? "text"
        guard format == "text" || format == "json" else { throw UsageError("unknown format \"\(format)\"; choose text or json") }
        let once = a.flag("once")
        var request = WatchRequest(origin: PlaceInput(text: from), destination: PlaceInput(text: to),
                                   waypoints: vias.isEmpty ? nil : vias.map { PlaceInput(text: $0) }, arriveAt: arriveAt,
                                   travelMode: a.value("mode"), routeType: a.value("type"),
                                   avoid: a.value("avoid").map { $0.split(separator: ",").map(String.init) },
                                   preparationTime: prep, traffic: !a.flag("no-traffic"))
        let replayPath = a.value("traffic-replay")
        let makeReplay = a.value("make-replay")
        let timeModel = TimeModelSettings(demoCongestion: a.flag("demo-congestion"))
        if makeReplay != nil && !once { throw UsageError("--make-replay goes with --once") }
        try a.checkAllUsed()
        var replay: TrafficReplay?
        if let replayPath {
            do { replay = try TrafficReplay.load(path: replayPath) } catch { throw CommandFailure(error.description, exitCode: ExitCode.dataError) }
        }

        let maps = try Commands.openService(a.positional[0], timeModel: timeModel)
        if arriveAt.hasPrefix("+") {
            // Relative to now: "+25m".
            guard let seconds = TimeInput.duration(String(arriveAt.dropFirst())) else {
                throw UsageError("--arrive-at \(arriveAt) is not a time or +DURATION (+25m, +1h)")
            }
            request.arriveAt = RFC3339.format(maps.clock().addingTimeInterval(seconds), in: maps.timeZone)
        }
        // The terminal's watch lives in memory: it ends with the command.
        let service = try WatchService(planning: maps.planning, places: maps.placeLookup, configuration: configuration, storePath: ":memory:")
        let plan: WatchDocument
        do {
            plan = try service.create(request)
        } catch {
            let message = error.detail.map { "\(error.message)\n(\($0))" } ?? error.message
            throw CommandFailure(message, exitCode: error.code == .badInput ? ExitCode.usage : ExitCode.answerIsNo)
        }
        if once {
            print(format == "json" ? try JSONOutput.encode(plan) : LeaveText.plan(plan))
            if let makeReplay, let path = service.watchedPath(plan.id) {
                guard let jam = TrafficReplay.jamming(path, planning: maps.planning) else {
                    throw CommandFailure("the route's roads were not found; no replay written", exitCode: ExitCode.software)
                }
                do { try jam.csv.write(toFile: makeReplay, atomically: true, encoding: .utf8) } catch {
                    throw CommandFailure("cannot write \(makeReplay): \(error)", exitCode: ExitCode.ioError)
                }
                FileHandle.standardError.write(Data("wrote \(makeReplay): \(jam.rows.count / 2) road segments jammed at +30 s, cleared at +150 s\n".utf8))
            }
            return
        }
        if let replay { service.play(replay) }
        try Countdown(service: service, watch: plan, json: format == "json").run()
    }
}

/// The live terminal view: a countdown line redrawn every second on a terminal, a line per event.
struct Countdown {
    let service: WatchService
    let watch: WatchDocument
    let json: Bool

    final class Inbox: Sendable {
        let messages = Mutex<[WatchEventMessage]>([])
        func take() -> [WatchEventMessage] { messages.withLock { m in defer { m = [] }; return m } }
    }

    func run() throws {
        let terminal = isatty(1) == 1 && !json
        let inbox = Inbox()
        print(json ? try JSONOutput.encode(watch, pretty: false) : LeaveText.plan(watch))
        fflush(nil)
        _ = service.subscribe(watch.id, after: watch.lastEventId, deliver: { m in inbox.messages.withLock { $0.append(m) }; return true },
                              finish: {})
        var current = watch
        while true {
            service.tick()
            for message in inbox.take() {
                guard let doc = try? JSONDecoder().decode(WatchDocument.self, from: Data(message.data.utf8)) else { continue }
                current = doc
                if terminal { print("\r\u{1B}[K", terminator: "") }
                if json {
                    print(message.data)
                } else {
                    print(LeaveText.event(doc))
                }
                fflush(nil)
                switch message.type {
                case WatchEventType.timeToLeave.rawValue:
                    if !json { print("\u{7}", terminator: "") }
                    fflush(nil)
                    return
                case WatchEventType.expired.rawValue:
                    throw CommandFailure("the arrival time has passed", exitCode: ExitCode.answerIsNo)
                default:
                    break
                }
            }
            if terminal, let live = service.watch(current.id) {
                print("\r\u{1B}[K" + LeaveText.countdown(live), terminator: "")
                fflush(nil)
            }
            Thread.sleep(forTimeInterval: 1)
        }
    }
}

enum LeaveText {
    /// "08:04:12" from an RFC 3339 time (its local clock part).
    static func clock(_ rfc3339: String?) -> String {
        guard let t = rfc3339, let tIndex = t.firstIndex(of: "T") else { return "?" }
        return String(t[t.index(after: tIndex)...].prefix(8))
    }

    static func hms(_ seconds: Int) -> String {
        let s = max(0, seconds)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return s >= 3600 ? "\(s / 3600):\(two(s % 3600 / 60)):\(two(s % 60))" : "\(s / 60):\(two(s % 60))"
    }

    static func place(_ p: WatchPlace) -> String {
        let at = "\(Coordinate6.format(p.lat)),\(Coordinate6.format(p.lon))"
        return p.name.map { "\($0) (\(at))" } ?? at
    }

    static func plan(_ w: WatchDocument) -> String {
        var lines: [String] = []
        lines.append("Leave at \(clock(w.departureTime)) to arrive by \(clock(w.arriveAt))"
                     + (w.secondsUntilDeparture.map { $0 > 0 ? " (in \(WatchMessages.span($0)))" : " (now)" } ?? ""))
        if w.preparationTime > 0 {
            lines.append("Get ready at \(clock(w.prepareBy)) (\(WatchMessages.span(w.preparationTime)) to prepare)")
        }
        if let late = w.lateBySeconds { lines.append("Leaving now you will be \(WatchMessages.span(late)) late") }
        var trip = "\(w.travelMode), \(w.routeType): \(Format.distance(Double(w.lengthInMeters ?? 0))), "
            + "\(Format.duration(Double(w.travelTimeInSeconds ?? 0)))" + (w.traffic ? " with traffic" : " with usual traffic")
        if let free = w.noTrafficTravelTimeInSeconds { trip += ", \(Format.duration(Double(free))) without" }
        if let delay = w.trafficDelayInSeconds, delay > 0 { trip += " (\(Format.duration(Double(delay))) of traffic delay)" }
        lines.append(trip)
        lines.append("from \(place(w.origin)) to \(place(w.destination)); arrive \(clock(w.arrivalTime))")
        if let offer = w.betterRoute { lines.append("! \(offer.message)") }
        return lines.joined(separator: "\n")
    }

    static func event(_ w: WatchDocument) -> String {
        guard let e = w.event else { return "" }
        let at = clock(e.at)
        switch e.type {
        case WatchEventType.trafficChange.rawValue, WatchEventType.late.rawValue:
            return "[\(at)] \(e.message) — \(e.friendlyMessage)"
        case WatchEventType.timeToLeave.rawValue:
            return "[\(at)] \(e.message) \(e.friendlyMessage)"
        default:
            return "[\(at)] \(e.friendlyMessage.isEmpty ? e.message : e.friendlyMessage)"
        }
    }

    static func countdown(_ w: WatchDocument) -> String {
        var s = "Leave in \(hms(w.secondsUntilDeparture ?? 0)) (at \(clock(w.departureTime)))"
        if let prep = w.secondsUntilPrepareBy, prep > 0, w.preparationTime > 0 { s += ", get ready in \(hms(prep))" }
        if let late = w.lateBySeconds { s = "Leave now: \(WatchMessages.span(late)) late" }
        return s
    }
}

enum Coordinate6 {
    static func format(_ v: Double) -> String { String(format: "%.6f", v) }
}
