public import Foundation

/// `manifest.json`: what a dataset folder holds. It is replaced atomically as the last step of an
/// import, so it always names a complete set of files.
public struct DatasetManifest: Codable, Sendable, Equatable {
    /// Bumped whenever the layout of any data file changes.
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    /// Unique per import; data files live in `data-<id>/` and tile caches are keyed by it.
    public var id: String
    public var createdAt: String
    public var source: Source
    public var timeZone: String
    /// How the time zone was chosen: "--timezone", "timezone tag", "country code", "location".
    public var timeZoneSource: String
    public var boundingBox: [Double]  // [minLon, minLat, maxLon, maxLat]
    /// The country the extract is in (ISO 3166-1 alpha-2), when the import could tell.
    public var countryCode: String?
    /// LEFT or RIGHT: the side traffic keeps to there (guidance turns roundabouts and U-turns by it).
    public var drivingSide: String?
    public var profiles: [String]
    public var files: [String: FileEntry]
    public var statistics: [String: [String: Int]]

    public struct Source: Codable, Sendable, Equatable {
        public var name: String
        public var bytes: Int
        public var crc32: UInt32
        public var replicationTimestamp: String?

        public init(name: String, bytes: Int, crc32: UInt32, replicationTimestamp: String?) {
            self.name = name
            self.bytes = bytes
            self.crc32 = crc32
            self.replicationTimestamp = replicationTimestamp
        }
    }

    public struct FileEntry: Codable, Sendable, Equatable {
        public var path: String
        public var bytes: Int
        public var crc32: UInt32

        public init(path: String, bytes: Int, crc32: UInt32) {
            self.path = path
            self.bytes = bytes
            self.crc32 = crc32
        }
    }

    public init(formatVersion: Int = currentFormatVersion, id: String, createdAt: String, source: Source, timeZone: String,
                timeZoneSource: String, boundingBox: [Double], profiles: [String], files: [String: FileEntry],
                statistics: [String: [String: Int]], countryCode: String? = nil, drivingSide: String? = nil) {
        self.formatVersion = formatVersion
        self.id = id
        self.createdAt = createdAt
        self.source = source
        self.timeZone = timeZone
        self.timeZoneSource = timeZoneSource
        self.boundingBox = boundingBox
        self.profiles = profiles
        self.files = files
        self.statistics = statistics
        self.countryCode = countryCode
        self.drivingSide = drivingSide
    }
}
