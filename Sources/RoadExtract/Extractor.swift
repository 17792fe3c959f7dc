public import OSMPBF
public import RoadNetwork
public import GeoCore
import Dispatch

/// Turns OSM data into one road graph per profile, in two passes over the source (as RoutingKit
/// and OSRM do): ways and relations first, to learn which nodes matter; then those nodes'
/// positions and tags. Everything after that is in memory and per profile.
public final class Extractor {
    /// The profiles, as `applyCountry` settles them for the country.
    public private(set) var profiles: [Profile]

    /// Progress: a stage name and a fraction 0...1 of that stage.
    public var progress: ((_ stage: String, _ fraction: Double) -> Void)?

    public init(profiles: [Profile]) {
        precondition(!profiles.isEmpty && profiles.count <= 8, "between 1 and 8 profiles")
        self.profiles = profiles
    }

    // Pass 1: ways that any profile can use.
    var wayOSMIDs: [Int64] = []
    var wayRefOffsets: [Int] = [0]
    var wayRefs: [Int64] = []
    var wayName: [UInt32] = []
    var wayRef: [UInt32] = []
    /// Sign tags of the few ways that have any, by index into the arrays above.
    var waySigns: [Int32: WaySignRecord] = [:]
    /// `verdicts[p][w]`
    var verdicts: [[WayVerdict?]] = []
    /// Verdicts that differ where the country's law opens more roads (`CountryAccess`),
    /// by way; the country is known only once the boundaries are read, after the ways.
    var countryVerdicts: [Int32: [WayVerdict?]] = [:]
    var wayByOSMID: [Int64: Int32] = [:]
    var strings: [String] = [""]
    var stringIndex: [String: UInt32] = ["": 0]
    var restrictions: [TurnRestriction] = []
    public private(set) var timeZoneHints = TimeZoneHints()

    // Pass 2: the nodes those ways use.
    var nodeIDs: [Int64] = []
    var nodeCoordinates: [Coordinate] = []
    var nodePresent: [Bool] = []
    /// Bit p: node blocks profile p. Bit 7 (`signalBit`): traffic signals.
    var nodeBits: [UInt8] = []
    var wayRefNode: [Int32] = []
    static let signalBit: UInt8 = 1 << 7
    var nodeStopSign: [Bool] = []
    /// The directions each profile's traffic signal holds, by node index, for signals that hold
    /// only one direction for some profile (`Profile.signalDirection`); every other signal holds both.
    var nodeSignalDirections: [Int32: [SignalDirection]] = [:]
    /// The seconds each profile spends passing a node's barrier (`Profile.barrierSeconds`), by
    /// node index, for barriers that cost some profile time.
    var nodeBarrierSeconds: [Int32: [Double]] = [:]
    /// Stop and give-way signs by node index (`YieldSign`).
    var nodeYieldSigns: [Int32: YieldSign] = [:]
    /// Exit number and name of motorway junction nodes, by node index.
    var nodeJunctions: [Int32: (ref: UInt32, name: UInt32)] = [:]

    public var statistics = Statistics()

    public struct Statistics: Sendable {
        public var osmNodes = 0, osmWays = 0, osmRelations = 0
        public var usableWays = 0, missingNodes = 0
        public var restrictions = 0
        /// Conditional tags (restrictions, access, one-way, maxspeed) whose condition is not supported,
        /// treated as off (`ConditionalTag`).
        public var unsupportedConditions = 0
    }

    /// Reads `source` and builds a graph for each profile, under the law of the country the
    /// extract's boundaries name most often.
    public func run(source: any OSMSource) throws -> [RoadGraphBuilder] {
        try read(source)
        let country = timeZoneHints.mostFrequentCountry
        applyCountry(country, drivingSide: country.map(DrivingSide.init(countryCode:)) ?? .right)
        return profiles.indices.map { buildGraph($0) }
    }

    /// Both passes over the source: what every profile's graph is built from.
    public func read(_ source: any OSMSource) throws {
        try readWaysAndRelations(source)
        try readNodes(source)
    }

    /// One profile's graph from what `read` kept (profiles can be built and dropped one at a time).
    public func buildGraph(_ p: Int) -> RoadGraphBuilder {
        progress?("build \(profiles[p].name) graph", 0)
        var assembly = GraphAssembly(extractor: self, profileIndex: p)
        let graph = assembly.build()
        progress?("build \(profiles[p].name) graph", 1)
        return graph
    }

    /// Settles the verdicts that depend on the country's law (ISO 3166-1 alpha-2; nil when unknown)
    /// and the side its traffic keeps to, once, after `read` and before the graphs are built.
    public func applyCountry(_ country: String?, drivingSide: DrivingSide) {
        for p in profiles.indices where profiles[p].turnCosts.followsDrivingSide { profiles[p].turnCosts.drivingSide = drivingSide }
        if CountryAccess.opensTrunk(country) {
            for (w, alternatives) in countryVerdicts {
                for p in profiles.indices where !profiles[p].countryHighwaySpeedsKmh.isEmpty { verdicts[p][Int(w)] = alternatives[p] }
            }
        }
        countryVerdicts = [:]
    }

    /// The box of the nodes of the usable ways (after `read`).
    public var nodeBounds: BoundingBox {
        var box = BoundingBox.empty
        for (i, c) in nodeCoordinates.enumerated() where nodePresent[i] { box.formUnion(c) }
        return box
    }

    /// Node references of the usable ways (after `readWaysAndRelations`): what the graphs and
    /// their hierarchies grow with.
    public var wayNodeReferences: Int { wayRefs.count }

    /// Drops what `read` kept, once every graph is built.
    public func release() {
        wayOSMIDs = []; wayRefOffsets = [0]; wayRefs = []; wayName = []; wayRef = []
        verdicts = []; countryVerdicts = [:]; wayByOSMID = [:]; strings = [""]; stringIndex = ["": 0]; restrictions = []
        nodeIDs = []; nodeCoordinates = []; nodePresent = []; nodeBits = []; wayRefNode = []; nodeStopSign = []
        nodeSignalDirections = [:]; nodeBarrierSeconds = [:]; nodeYieldSigns = [:]
    }

    func intern(_ s: String) -> UInt32 {
        if let i = stringIndex[s] { return i }
        let i = UInt32(strings.count)
        strings.append(s)
        stringIndex[s] = i
        return i
    }

    /// Pass 1: the ways any profile can use, turn restrictions and time-zone hints.
    public func readWaysAndRelations(_ source: any OSMSource) throws {
        verdicts = Array(repeating: [], count: profiles.count)
        let profiles = self.profiles
        // Each profile where a country's law opens more roads, as it is there.
        let opened = profiles.map { $0.countryHighwaySpeedsKmh.isEmpty ? nil : $0.withCountryHighways }
        // Ways of relations that make them cycle-friendly (`route=bicycle`), per profile; marked once all ways are read.
        var routeMembers = [Set<Int64>](repeating: [], count: profiles.count)
        let readsRoutes = profiles.contains { !$0.cycleRouteTags.isEmpty }
        try source.forEachBlock(content: [.ways, .relations], progress: { [weak self] done, total in
            self?.progress?("read ways", Double(done) / Double(max(1, total)))
        }) { block in
            statistics.osmWays += block.wayCount
            statistics.osmRelations += block.relationCount
            let highwayKey = block.stringIndex(of: "highway"), routeKey = block.stringIndex(of: "route")
            if highwayKey != nil || routeKey != nil {
                for w in 0..<block.wayCount {
                    let refs = block.wayRefRange(w)
                    guard refs.count >= 2 else { continue }
                    var relevant = false
                    for t in block.wayTagRange(w) where block.wayTagKeys[t] == highwayKey || block.wayTagKeys[t] == routeKey {
                        relevant = true
                        break
                    }
                    guard relevant else { continue }
                    let tags = block.wayTags(w)
                    var any = false, unsupported = 0
                    var perProfile: [WayVerdict?] = []
                    perProfile.reserveCapacity(profiles.count)
                    for profile in profiles {
                        let v = profile.evaluate(way: tags)
                        if let v { any = true; unsupported = max(unsupported, v.unsupportedConditions) }
                        perProfile.append(v)
                    }
                    var alternatives: [WayVerdict?]?
                    if let highway = tags["highway"] {
                        for (p, profile) in profiles.enumerated() where profile.countryHighwaySpeedsKmh[highway] != nil {
                            let v = opened[p]!.evaluate(way: tags)
                            guard v != perProfile[p] else { continue }
                            if alternatives == nil { alternatives = perProfile }
                            alternatives![p] = v
                            if v != nil { any = true }
                        }
                    }
                    guard any else { continue }
                    statistics.unsupportedConditions += unsupported
                    let index = Int32(wayOSMIDs.count)
                    wayByOSMID[block.wayIDs[w]] = index
                    wayOSMIDs.append(block.wayIDs[w])
                    wayRefs.append(contentsOf: block.wayRefs[refs])
                    wayRefOffsets.append(wayRefs.count)
                    wayName.append(intern(tags["name"] ?? ""))
                    wayRef.append(intern(tags["ref"] ?? ""))
                    let signs = signRecord(tags)
                    if !signs.isEmpty { waySigns[index] = signs }
                    for p in profiles.indices { verdicts[p].append(perProfile[p]) }
                    if let alternatives { countryVerdicts[index] = alternatives }
                }
            }
            for r in 0..<block.relationCount {
                switch TurnRestriction.parse(block: block, relation: r, profiles: profiles) {
                case .restriction(let restriction)?: restrictions.append(restriction)
                case .unsupportedCondition?: statistics.unsupportedConditions += 1
                case nil: break
                }
                let tags = block.relationTags(r)
                timeZoneHints.observe(tags)
                if readsRoutes {
                    for (p, profile) in profiles.enumerated() where profile.isCycleRoute(tags) {
                        for m in block.relationMemberRange(r) where block.relationMemberTypes[m] == .way { routeMembers[p].insert(block.relationMemberIDs[m]) }
                    }
                }
            }
        }
        for (p, members) in routeMembers.enumerated() {
            for id in members {
                guard let w = wayByOSMID[id].map(Int.init) else { continue }
                verdicts[p][w]?.flags.insert(.cycleFriendly)
                countryVerdicts[Int32(w)]?[p]?.flags.insert(.cycleFriendly)
            }
        }
        statistics.usableWays = wayOSMIDs.count
        statistics.restrictions = restrictions.count
    }

    /// Pass 2: the nodes of those ways.
    public func readNodes(_ source: any OSMSource) throws {
        // The nodes to keep: every node of a usable way, sorted for binary search.
        progress?("index nodes", 0)
        var needed = wayRefs
        needed.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(needed.count)
        for id in needed where unique.last != id { unique.append(id) }
        needed = []
        nodeIDs = unique
        nodeCoordinates = Array(repeating: Coordinate(latitudeE7: 0, longitudeE7: 0), count: unique.count)
        nodePresent = Array(repeating: false, count: unique.count)
        nodeBits = Array(repeating: 0, count: unique.count)
        nodeStopSign = Array(repeating: false, count: unique.count)
        let profiles = self.profiles
        try source.forEachBlock(content: [.nodes], progress: { [weak self] done, total in
            self?.progress?("read nodes", Double(done) / Double(max(1, total)))
        }) { block in
            statistics.osmNodes += block.nodeCount
            var cursor = 0
            var previous = Int64.min
            for n in 0..<block.nodeCount {
                let id = block.nodeIDs[n]
                // Files are sorted by id almost always: walk a cursor, fall back to binary search.
                if id < previous { cursor = 0 }
                previous = id
                cursor = Self.lowerBound(nodeIDs, id, from: cursor)
                guard cursor < nodeIDs.count, nodeIDs[cursor] == id else { continue }
                nodeCoordinates[cursor] = Coordinate(latitudeE7: block.nodeLatitudesE7[n], longitudeE7: block.nodeLongitudesE7[n])
                nodePresent[cursor] = true
                let tagRange = block.nodeTagRange(n)
                guard !tagRange.isEmpty else { continue }
                let tags = block.nodeTags(n)
                var bits: UInt8 = 0
                if tags["highway"] == "traffic_signals" {
                    bits |= Self.signalBit
                    let directions = profiles.map { $0.signalDirection(tags) }
                    if directions.contains(where: { $0 != .both }) { nodeSignalDirections[Int32(cursor)] = directions }
                }
                if tags["highway"] == "stop" { nodeStopSign[cursor] = true }
                if let sign = YieldSign(tags) { nodeYieldSigns[Int32(cursor)] = sign }
                if tags["highway"] == "motorway_junction", tags["ref"] != nil || tags["name"] != nil {
                    nodeJunctions[Int32(cursor)] = (intern(tags["ref"] ?? ""), intern(tags["name"] ?? ""))
                }
                if tags["barrier"] != nil || tags["access"] != nil {
                    for (p, profile) in profiles.enumerated() where profile.isBlocked(byNode: tags) { bits |= 1 << UInt8(p) }
                    let seconds = profiles.map { $0.barrierSeconds(tags) }
                    if seconds.contains(where: { $0 > 0 }) { nodeBarrierSeconds[Int32(cursor)] = seconds }
                }
                nodeBits[cursor] = bits
            }
        }
        progress?("index nodes", 0.5)
        wayRefNode = wayRefs.map { id in
            let i = Self.lowerBound(nodeIDs, id, from: 0)
            return nodePresent[i] ? Int32(i) : -1
        }
        statistics.missingNodes = nodePresent.reduce(0) { $0 + ($1 ? 0 : 1) }
        vetFerries()
        progress?("index nodes", 1)
    }

    /// The sign tags of a way: a plain key applies in the way's direction (against it for
    /// `oneway=-1`), `:forward`/`:backward` keys to that direction only.
    func signRecord(_ tags: Tags) -> WaySignRecord {
        let reversed = tags["oneway"] == "-1"
        func pair(_ key: String) -> (UInt32, UInt32) {
            let plain = tags[key]
            let forward = tags[key + ":forward"] ?? (reversed ? nil : plain)
            let backward = tags[key + ":backward"] ?? (reversed ? plain : nil)
            return (intern(forward ?? ""), intern(backward ?? ""))
        }
        var r = WaySignRecord()
        guard tags.pairs.contains(where: { $0.key.hasPrefix("destination") || $0.key == "junction:ref" || $0.key.hasPrefix("turn:lanes") }) else {
            return r
        }
        (r.destinationForward, r.destinationBackward) = pair("destination")
        (r.destinationRefForward, r.destinationRefBackward) = pair("destination:ref")
        (r.turnLanesForward, r.turnLanesBackward) = pair("turn:lanes")
        r.destinationStreet = intern(tags["destination:street"] ?? "")
        r.junctionRef = intern(tags["junction:ref"] ?? "")
        return r
    }

    /// First index ≥ `from` whose value is ≥ `value` (galloping from `from`, then binary search).
    static func lowerBound(_ array: [Int64], _ value: Int64, from: Int) -> Int {
        var lo = from, step = 1
        var hi = from
        while hi < array.count && array[hi] < value {
            lo = hi + 1
            hi += step
            step *= 2
        }
        hi = min(hi, array.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if array[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
