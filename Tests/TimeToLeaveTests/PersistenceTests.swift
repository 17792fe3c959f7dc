import Foundation
import Testing
import MapsTestSupport
import MapsService
import MapsAPI
import Dataset
import DatasetImport
@testable import TimeToLeave

/// Watches live in SQLite under the dataset's `state/`: a new service (a restart) or a re-import
/// finds them with their state and their recent events.
@Suite("Watch persistence", .timeLimit(.minutes(2)))
struct PersistenceTests {
    @Test func aRestartFindsTheWatchesWithTheirStateAndEvents() throws {
        let f = try Fixture(storePath: nil)
        let path = f.watches.storePath
        #expect(path == f.maps.dataset.stateFolder + "/timetoleave.sqlite")
        let t0 = f.clock.now
        let w = try f.watch(arrivingIn: 11, preparation: 120)
        let other = try f.watch(arrivingIn: 90, from: "c", to: "b")
        f.watches.play(TrafficReplay(rows: TestMap.rows(f.scenario, "ab", offset: 30, speedKmh: 25)), start: t0)
        try f.tick(at: t0 + 30, events: w.id)
        try f.tick(at: t0 + 90, events: w.id)
        let before = try #require(f.watches.watch(w.id))
        let eventsBefore = try #require(f.watches.events(w.id))
        #expect(before.lastEventId == 3)
        #expect(before.betterRoute != nil)

        // A new process: the same store, the same clock.
        let restarted = try WatchService(planning: f.maps.planning, places: nil, storePath: path)
        #expect(restarted.count == 2)
        let after = try #require(restarted.watch(w.id))
        #expect(after.departureTime == before.departureTime)
        #expect(after.prepareBy == before.prepareBy)
        #expect(after.arriveAt == before.arriveAt)
        #expect(after.lastEventId == 3)
        #expect(after.planCount == before.planCount)
        #expect(after.event?.type == before.event?.type)
        #expect(after.betterRoute?.departureTime == before.betterRoute?.departureTime)
        #expect(f.nodes(after.route) == "abd")
        #expect(restarted.events(w.id) == eventsBefore)
        #expect(restarted.watch(other.id)?.destination == other.destination)
        // And it goes on numbering where it stopped (restored watches re-plan at the first tick).
        restarted.tick()
        let next = try #require(restarted.events(w.id, after: 3)?.first)
        #expect(next.id == 4)
        // Deleting removes it from the store too.
        #expect(restarted.delete(w.id))
        #expect(try WatchService(planning: f.maps.planning, places: nil, storePath: path).watch(w.id) == nil)
    }

    @Test func onlyTheNewestEventsAreKept() throws {
        var configuration = WatchConfiguration()
        configuration.eventsKeptPerWatch = 3
        let f = try Fixture(storePath: nil, configuration: configuration)
        let w = try f.watch(arrivingIn: 60)
        for minute in 1...5 { try f.tick(at: TestMap.mondayThreeAM + Double(minute * 60), events: w.id) }
        #expect(f.watches.events(w.id)?.map(\.id) == [4, 5, 6])
    }

    @Test func aReimportKeepsTheWatchesAndReplansThem() throws {
        let f = try Fixture(storePath: nil)
        let w = try f.watch(arrivingIn: 60)
        let root = f.maps.dataset.layout.root
        // The scenario wrote its extract beside the dataset; import it again into the same folder.
        let pbf = (root as NSString).deletingLastPathComponent + "/map.osm.pbf"
        var options = DatasetImporter.Options(extractPath: pbf, outputPath: root)
        options.profiles = [.car, .pedestrian]
        options.timeZone = "Europe/Helsinki"
        options.skipPlaces = true
        _ = try DatasetImporter(options: options).run()
        let clock = f.clock
        let reopened = try MapsService(dataset: try Dataset(path: root), clock: { clock.now })
        // A server swaps the new dataset into the running service…
        f.watches.replacePlanning(reopened.planning, places: reopened.placeLookup)
        let events = try f.tick(at: f.clock.now + 1, events: w.id)
        #expect(events.map(\.event?.type) == ["no-change"])
        #expect(f.watches.planning === reopened.planning)
        // …and a restarted one finds the watch on the re-imported dataset.
        let restarted = try WatchService(planning: reopened.planning, places: nil, storePath: f.watches.storePath)
        #expect(restarted.watch(w.id)?.departureTime == w.departureTime)
    }

    /// Watches keep their route as arcs. One stored before that (no arcs), or whose arcs no longer
    /// fit the graph (a re-import of other data), is re-planned: the same roads are no route change.
    @Test(arguments: ["no arcs", "arcs of another graph"])
    func aWatchWithoutFittingArcsIsReplannedOnTheSameRoads(_ kind: String) throws {
        let f = try Fixture(storePath: nil)
        let w = try f.watch(arrivingIn: 60)
        let store = try WatchStore(path: f.watches.storePath)
        var record = try #require(try store.loadAll().first { $0.id == w.id })
        let path = try #require(record.plan?.path)
        #expect(path.legs.flatMap { $0 }.count >= 2)
        #expect(f.maps.planning.fits(path))
        var other = path
        other.legs[0][0].arc = 1_000_000
        record.plan?.path = kind == "no arcs" ? nil : other
        try store.commit(records: [record], events: [], keepEvents: 20, now: f.clock.now.timeIntervalSince1970)

        let restarted = try WatchService(planning: f.maps.planning, places: nil, storePath: f.watches.storePath)
        let last = try #require(restarted.watch(w.id)).lastEventId
        f.clock.advance(by: 1)
        restarted.tick()
        let events = try (restarted.events(w.id, after: last) ?? []).map { try JSONDecoder().decode(WatchDocument.self, from: Data($0.data.utf8)) }
        #expect(events.map(\.event?.type) == ["no-change"])
        #expect(events.first?.event?.routeChanged == nil)
        #expect(f.nodes(events.first?.route) == "abd")
        #expect(restarted.watchedPath(w.id) == path)
    }
}
