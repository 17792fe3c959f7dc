public import OSMPBF
import BinaryIO
import GeoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// Builds `places.sqlite` from OSM data: addresses (with their buildings' outlines and interpolated
/// house numbers), merged streets, localities, postcodes, boundaries and POIs with categories, phone,
/// website and opening hours; FTS5 for text, R*Trees for space and a trigram vocabulary for typo
/// tolerance. The file is written under a temporary name and renamed into place, so readers never see
/// half an index.
///
/// Memory stays bounded at country scale: records go to a staging file as they are read and come back
/// one at a time (`StagingStore`); streets are merged one name at a time; what is held whole is the
/// node lists of the ways that matter and compact columns of the addresses.
public final class PlacesIndexBuilder {
    public struct Options: Sendable {
        /// ISO alpha-2 code for objects without `addr:country`; nil = the most common `addr:country` in the data.
        public var defaultCountryCode: String?
        public var taxonomy: CategoryTaxonomy
        /// Same-named ways closer than this become one street.
        public var streetMergeDistanceMeters: Double
        /// A text describing the source, stored in the index's metadata.
        public var sourceDescription: String

        public init(defaultCountryCode: String? = nil, taxonomy: CategoryTaxonomy = .standard, streetMergeDistanceMeters: Double = 200,
                    sourceDescription: String = "") {
            self.defaultCountryCode = defaultCountryCode
            self.taxonomy = taxonomy
            self.streetMergeDistanceMeters = streetMergeDistanceMeters
            self.sourceDescription = sourceDescription
        }
    }

    public struct Statistics: Sendable, Equatable {
        public var addresses = 0
        public var interpolatedAddresses = 0
        public var duplicateAddressesDropped = 0
        public var streets = 0
        /// Pieces of street geometry (a few points each) in the nearest-street index.
        public var streetPieces = 0
        public var pois = 0
        public var localities = 0
        public var postcodes = 0
        public var boundaries = 0
        /// Places with an outline (buildings and areas that carry an address or are a POI).
        public var outlines = 0
        public var vocabularyTerms = 0
        public var skippedForMissingGeometry = 0
        public var fileSizeBytes = 0
        public var seconds = 0.0
        public var countryCode: String?
    }

    public let options: Options
    /// Progress: a stage name and the fraction 0...1 done of it; called on the building thread.
    public var progress: ((_ stage: String, _ fraction: Double) -> Void)?

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Reads `source` and writes the index to `path` (atomically). Throws on I/O or SQLite failure only;
    /// malformed OSM objects are skipped.
    @discardableResult
    public func build(from source: any OSMSource, to path: String) throws -> Statistics {
        let started = Self.now()
        var stats = Statistics()
        let temporary = "\(path).tmp-\(getpid())"
        FileIO.remove(temporary)
        do {
            try build(source, temporary, &stats)
        } catch {
            FileIO.remove(temporary)
            throw error
        }
        try Self.syncFile(temporary)
        guard rename(temporary, path) == 0 else {
            let error = FileIOError.errno(path, "cannot rename \(temporary) into place")
            FileIO.remove(temporary)
            throw error
        }
        stats.fileSizeBytes = FileIO.fileSize(path) ?? 0
        stats.seconds = Self.now() - started
        progress?("done", 1)
        return stats
    }

    private func build(_ source: any OSMSource, _ path: String, _ stats: inout Statistics) throws {
        let staging = try StagingStore(path: "\(path).staging")
        let collector = OSMPlaceCollector(classifier: TagClassifier(taxonomy: options.taxonomy), staging: staging)
        collector.progress = progress
        try collector.collect(source)

        progress?("prepare places", 0)
        stats.skippedForMissingGeometry = try staging.resolve(collector.locate)
        let boundaries = collector.boundaries.compactMap { b -> Boundary? in
            guard let shape = collector.relationShape(b.relation) else { return nil }
            return Boundary(kind: b.kind, name: b.name, otherNames: b.others, countryCode: b.countryCode, osmID: b.osmID,
                            shape: shape, bounds: shape.bounds, areaSquareMeters: shape.areaSquareMeters)
        }
        for line in collector.interpolationLines() {
            for r in AddressInterpolator.expand(line, anchors: collector.interpolationAnchors) { try staging.add(r, source: .point) }
        }
        progress?("prepare places", 0.3)

        // Addresses in the order their copies are kept (tagged, from a POI, interpolated): one per number and place.
        var addresses = AddressTable()
        var keptSequence: [Int64] = []
        var dropped = BitSet(count: Int(staging.maximumSequence) + 1)
        var fills: [Int64: (postcode: String?, city: String?)] = [:]
        var firstByKey: [UInt64: Int32] = [:], moreByKey: [UInt64: [Int32]] = [:]
        var localities: [(position: Coordinate, name: String, place: String)] = []
        var countries: [String: Int] = [:]
        try staging.forEach(kinds: [.address, .locality], order: "priority, seq") { seq, r, _ in
            if r.kind == .locality {
                localities.append((r.position, r.name, r.osmValue))
                return
            }
            if let c = r.countryCode, c.count == 2 { countries[c, default: 0] += 1 }
            let key = Self.addressKey(r)
            let same = ([firstByKey[key]].compactMap { $0 } + (moreByKey[key] ?? []))
                .first { Geodesy.distanceMeters(addresses.positions[Int($0)], r.position) < 150 }
            if let same {
                addresses.fill(Int(same), postcode: r.postcode, city: r.city)
                let kept = keptSequence[Int(same)]
                var fill = fills[kept] ?? (nil, nil)
                if fill.postcode == nil { fill.postcode = r.postcode }
                if fill.city == nil { fill.city = r.city }
                fills[kept] = fill
                dropped.insert(Int(seq))
                stats.duplicateAddressesDropped += 1
                return
            }
            let index = Int32(addresses.count)
            if firstByKey[key] == nil { firstByKey[key] = index } else { moreByKey[key, default: []].append(index) }
            addresses.add(r)
            keptSequence.append(seq)
        }
        firstByKey = [:]
        moreByKey = [:]
        let country = options.defaultCountryCode?.uppercased() ?? countries.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        stats.countryCode = country
        var postcodes = PostcodeAreas()
        var enricher = AddressEnricher(addresses: addresses, localities: localities, boundaries: BoundaryIndex(boundaries),
                                       defaultCountryCode: country)
        progress?("prepare places", 1)

        let writer = try PlacesIndexWriter(path: path, taxonomy: options.taxonomy)
        enricher.nearestStreet = { p, meters in try writer.nearestStreetName(to: p, maxMeters: meters) }
        enricher.enclosingAddress = { p in try writer.enclosingAddress(of: p) }

        // Streets, one name at a time; their other names go to the addresses on them.
        let wayCount = max(1, collector.streets.count)
        var waysDone = 0
        try collector.streets.forEachName(collector.geometry) { ways in
            for street in StreetMerger.merge(sameName: ways, mergeDistanceMeters: options.streetMergeDistanceMeters) {
                let record = try enricher.context(forStreet: street)
                let id = try writer.write(record)
                if street.postcode != nil { postcodes.add(record) }
                stats.streetPieces += try writer.writeStreetGeometry(street.lines, streetID: id)
                stats.streets += 1
                if !street.otherNames.isEmpty {
                    enricher.streetNames[street.name.lowercased(), default: []].append((street.extent, street.otherNames))
                }
            }
            waysDone += ways.count
            if waysDone % 1_000 < ways.count { progress?("write streets", Double(waysDone) / Double(wayCount)) }
        }
        collector.releaseGeometry()

        // Everything else in the order it was read, completed from its surroundings; POIs last, so that a
        // POI can take the address of the building around it.
        let total = max(1, staging.count)
        var done = 0
        for kinds: [PlaceKind] in [[.address, .locality], [.poi]] {
            try staging.forEach(kinds: kinds, order: "seq") { seq, staged, shape in
                done += 1
                if done % 10_000 == 0 { progress?("write places", Double(done) / Double(total)) }
                guard !dropped.contains(Int(seq)) else { return }
                var r = staged
                if let fill = fills[seq] {
                    r.postcode = r.postcode ?? fill.postcode
                    r.city = r.city ?? fill.city
                }
                try enricher.complete(&r)
                try writer.write(r, shape: shape)
                if shape != nil { stats.outlines += 1 }
                switch r.kind {
                case .address:
                    stats.addresses += 1
                    if r.flags.contains(.interpolated) { stats.interpolatedAddresses += 1 }
                    postcodes.add(r)
                case .poi:
                    stats.pois += 1
                    postcodes.add(r)
                case .locality: stats.localities += 1
                case .street, .postcode: break
                }
            }
        }
        for (staged, shape) in postcodes.records(boundaries: boundaries) {
            var r = staged
            try enricher.complete(&r)
            try writer.write(r, shape: shape)
            stats.postcodes += 1
        }
        for b in boundaries { try writer.write(b) }
        stats.boundaries = boundaries.count
        try writer.commit()

        progress?("build vocabulary", 0)
        try writer.database.exec("BEGIN")
        stats.vocabularyTerms = try writer.buildVocabulary()
        try writer.setMeta("format_version", String(PlacesSchema.formatVersion))
        try writer.setMeta("built_at_unix", String(Int(Self.wallClockSeconds())))
        try writer.setMeta("source", options.sourceDescription)
        try writer.setMeta("country_code", country ?? "")
        try writer.setMeta("counts", "addresses=\(stats.addresses) streets=\(stats.streets) pois=\(stats.pois) localities=\(stats.localities) postcodes=\(stats.postcodes)")
        try writer.commit()
        progress?("optimize", 0)
        try writer.finish()
    }

    /// What makes two addresses the same: street and number, case and spaces aside (as a 64-bit hash).
    static func addressKey(_ r: PlaceRecord) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(r.street?.lowercased() ?? "")|\(r.houseNumber?.lowercased().filter { $0 != " " } ?? "")".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    private static func syncFile(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIOError.errno(path, "cannot open for sync") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileIOError.errno(path, "cannot sync") }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func wallClockSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec)
    }
}

/// A fixed-size set of small non-negative integers.
struct BitSet {
    private var words: [UInt64]

    init(count: Int) { words = Array(repeating: 0, count: (count + 63) / 64) }

    mutating func insert(_ i: Int) {
        if i / 64 >= words.count { words += Array(repeating: 0, count: i / 64 - words.count + 1) }
        words[i / 64] |= 1 << UInt64(i % 64)
    }

    func contains(_ i: Int) -> Bool { i / 64 < words.count && words[i / 64] & (1 << UInt64(i % 64)) != 0 }
}
