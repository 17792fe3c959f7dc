import BinaryIO
public import GeoCore
public import OSMPBF

#if canImport(Glibc)
import Glibc
#endif

/// Extracts what a calm base map draws from an OSM source and writes it as one `basemap.wfm` file.
///
/// ```swift
/// let stats = try BaseMapBuilder().build(source: try PBFReader(path: pbf), outputPath: dataFolder + "/basemap.wfm")
/// ```
/// Reads the source three times (relations, ways, nodes), holding only the nodes that kept ways use.
public struct BaseMapBuilder {
    /// The extract's boundary, along which cut coastlines are closed. Nil uses the PBF header's
    /// box (clipped to the data) or the data's own extent.
    public var extractBounds: BoundingBox?
    public var bands: [ZoomBand]

    public init(extractBounds: BoundingBox? = nil, bands: [ZoomBand] = ZoomBand.standard) {
        self.extractBounds = extractBounds
        self.bands = bands
    }

    /// Builds the base map and writes it atomically to `outputPath`.
    @discardableResult
    public func build(source: any OSMSource, outputPath: String,
                      progress: ((_ stage: String, _ fraction: Double) -> Void)? = nil) throws -> BaseMapStatistics {
        let started = Self.now()
        var (columns, statistics) = try makeColumns(source: source, progress: progress)
        progress?("basemap: write", 0)
        do {
            try columns.write(to: outputPath, formatVersion: BaseMap.formatVersion)
        } catch {
            throw BaseMapError.io(error)
        }
        progress?("basemap: write", 1)
        statistics.fileBytes = FileIO.fileSize(outputPath) ?? 0
        statistics.seconds = Self.now() - started
        return statistics
    }

    /// Builds the base map in memory (for tests and previews); nothing touches the disk.
    public func buildInMemory(source: any OSMSource) throws -> BaseMap {
        let (columns, _) = try makeColumns(source: source, progress: nil)
        return try BaseMap(columns: columns.freeze(), origin: "memory")
    }

    func makeColumns(source: any OSMSource,
                     progress: ((_ stage: String, _ fraction: Double) -> Void)?) throws -> (ColumnSetBuilder, BaseMapStatistics) {
        let started = Self.now()
        let collected = try SourceCollector(extractBounds: extractBounds, progress: progress).collect(source)
        var columns = BaseMapColumns()
        var perBand: [Int] = []
        for (b, band) in bands.enumerated() {
            progress?("basemap: index", Double(b) / Double(bands.count))
            let before = columns.featureCount
            try columns.appendBand(CellIndexer(band: band).pieces(collected.drafts), drafts: collected.drafts)
            perBand.append(columns.featureCount - before)
        }
        progress?("basemap: index", 1)
        var builder = ColumnSetBuilder()
        columns.write(into: &builder)
        let data = collected.dataBounds, extract = collected.extractBox.boundingBox
        builder.metadata = [
            "kind": "basemap",
            "bands": bands.map(\.description).joined(separator: ","),
            "dataBounds": data.isEmpty ? "" : "\(data.minLatitudeE7),\(data.minLongitudeE7),\(data.maxLatitudeE7),\(data.maxLongitudeE7)",
            "extractBounds": extract.isEmpty ? "" : "\(extract.minLatitudeE7),\(extract.minLongitudeE7),\(extract.maxLatitudeE7),\(extract.maxLongitudeE7)",
        ]
        let seaRings = collected.drafts.last(where: { $0.kind == .sea })?.parts.count ?? 0
        let statistics = BaseMapStatistics(sourceFeatures: collected.drafts.count, featuresPerBand: perBand,
                                           points: columns.points.count, coastlineWays: collected.coastlineWays,
                                           seaRings: seaRings, fileBytes: 0, seconds: Self.now() - started)
        return (builder, statistics)
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
