public import OSMPBF
import BinaryIO
import GeoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// Builds `places.sqlite` from OSM data: addresses (with interpolated house numbers), merged streets,
/// localities and POIs with categories, phone, website and opening hours; FTS5 for text, R*Trees for
/// space and a trigram vocabulary for typo tolerance. The file is written under a temporary name and
/// renamed into place, so readers never see half an index.
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
        public var streetSegments = 0
        public var pois = 0
        public var localities = 0
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
        let collector = OSMPlaceCollector(classifier: TagClassifier(taxonomy: options.taxonomy))
        collector.progress = progress
        try collector.collect(source)

        progress?("prepare places", 0)
        var records = collector.resolveGeometry()
        stats.skippedForMissingGeometry = collector.statistics.missingGeometry

        // House numbers along interpolation ways, from their tagged end nodes.
        var addressNodes: [Int64: PlaceRecord] = [:]
        for r in records where r.kind == .address && r.osmType == .node { addressNodes[r.osmID] = r }
        var interpolated: [PlaceRecord] = []
        for line in collector.interpolationLines() { interpolated += AddressInterpolator.expand(line, known: addressNodes) }

        let streets = StreetMerger.merge(collector.streetGeometries(), mergeDistanceMeters: options.streetMergeDistanceMeters)
        let country = options.defaultCountryCode?.uppercased() ?? Self.mostCommonCountry(records)
        stats.countryCode = country

        // Addresses: tagged objects first, then those copied from POIs, then interpolated ones; one per number and place.
        let ordered = records.filter { $0.kind == .address && !$0.flags.contains(.fromPOI) }
            + records.filter { $0.kind == .address && $0.flags.contains(.fromPOI) } + interpolated
        let addresses = Self.deduplicate(ordered, dropped: &stats.duplicateAddressesDropped)
        records = records.filter { $0.kind != .address } + addresses
        progress?("prepare places", 0.5)

        let enricher = AddressEnricher(records: records, streets: streets, defaultCountryCode: country)
        for i in records.indices { enricher.complete(&records[i]) }
        progress?("prepare places", 1)

        // Write to a temporary file beside the target, then rename.
        let temporary = "\(path).tmp-\(getpid())"
        FileIO.remove(temporary)
        do {
            let writer = try PlacesIndexWriter(path: temporary, taxonomy: options.taxonomy)
            try writer.begin()
            for (i, r) in records.enumerated() {
                try writer.write(r)
                switch r.kind {
                case .address:
                    stats.addresses += 1
                    if r.flags.contains(.interpolated) { stats.interpolatedAddresses += 1 }
                case .poi: stats.pois += 1
                case .locality: stats.localities += 1
                case .street: break
                }
                if i % 10_000 == 0 { progress?("write places", Double(i) / Double(max(1, records.count))) }
            }
            for (i, s) in streets.enumerated() {
                let context = enricher.context(forStreet: s)
                var r = PlaceRecord(kind: .street, osmType: .way, osmID: s.osmID, name: s.name, otherNames: s.otherNames,
                                    osmKey: "highway", osmValue: s.highway,
                                    importance: TagClassifier.streetImportance(highway: s.highway, lengthMeters: s.lengthMeters))
                r.position = s.position
                r.extent = s.extent
                r.street = s.name
                r.postcode = context.postcode
                r.city = context.city
                r.district = context.district
                r.countryCode = country
                let id = try writer.write(r)
                try writer.writeSegments(s.segments, streetID: id)
                stats.streets += 1
                stats.streetSegments += s.segments.count
                if i % 10_000 == 0 { progress?("write streets", Double(i) / Double(max(1, streets.count))) }
            }
            try writer.commit()
            progress?("build vocabulary", 0)
            try writer.begin()
            stats.vocabularyTerms = try writer.buildVocabulary()
            try writer.setMeta("format_version", String(PlacesSchema.formatVersion))
            try writer.setMeta("built_at_unix", String(Int(Self.wallClockSeconds())))
            try writer.setMeta("source", options.sourceDescription)
            try writer.setMeta("country_code", country ?? "")
            try writer.setMeta("counts", "addresses=\(stats.addresses) streets=\(stats.streets) pois=\(stats.pois) localities=\(stats.localities)")
            try writer.commit()
            progress?("optimize", 0)
            try writer.finish()
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

    /// Keeps the first address per (street, number) within 150 m; later copies only fill missing postcode and city.
    static func deduplicate(_ addresses: [PlaceRecord], dropped: inout Int) -> [PlaceRecord] {
        var kept: [PlaceRecord] = []
        var byKey: [String: [Int]] = [:]
        for r in addresses {
            let key = "\(r.street?.lowercased() ?? "")|\(r.houseNumber?.lowercased().filter { $0 != " " } ?? "")"
            if let same = byKey[key]?.first(where: { Geodesy.distanceMeters(kept[$0].position, r.position) < 150 }) {
                if kept[same].postcode == nil { kept[same].postcode = r.postcode }
                if kept[same].city == nil { kept[same].city = r.city }
                dropped += 1
                continue
            }
            byKey[key, default: []].append(kept.count)
            kept.append(r)
        }
        return kept
    }

    static func mostCommonCountry(_ records: [PlaceRecord]) -> String? {
        var counts: [String: Int] = [:]
        for r in records { if let c = r.countryCode, c.count == 2 { counts[c, default: 0] += 1 } }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
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
