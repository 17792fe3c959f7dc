/// The server's self-description (`GET /health`, also `/status`).
public struct ServerHealth: Sendable, Codable, Equatable {
    /// `ok` when serving.
    public var status = "ok"
    /// The imported dataset's identifier (changes with every import).
    public var dataset: String
    /// When the dataset was imported (RFC 3339).
    public var datasetCreatedAt: String
    /// The extract the dataset was imported from, such as `monaco.osm.pbf`.
    public var source: String
    /// The dataset's IANA time zone, in which route times are given.
    public var timeZone: String
    /// `[minLon, minLat, maxLon, maxLat]` of the extract.
    public var boundingBox: [Double]
    /// Travel modes the dataset can route (`car`, `taxi`, `bicycle`, `pedestrian`).
    public var profiles: [String]
    /// Seconds since the server started.
    public var uptimeSeconds: Int
    /// Live traffic updates in force.
    public var trafficUpdates: Int
    /// Seconds since the newest live update in force was applied; absent when there is none.
    public var trafficUpdateAgeSeconds: Int?
    /// Whether the server renders base map tiles.
    public var tiles: Bool
    /// Whether the other endpoints want `key=` (`serve --api-keys`); /health itself never does.
    public var apiKeyRequired: Bool
    /// What one request may ask for.
    public var limits: ServiceLimits
    /// The HTTP layer's limits, when the server reports them.
    public var http: HTTPLimits?
    /// The roles, how each is gated, and the quotas and caps, when the server reports them.
    public var access: ServerAccess?
    /// LEFT or RIGHT: the side traffic keeps to in the dataset's country.
    public var drivingSide: String?
    /// The languages instructions can be given in, as base tags (`en`, `de`, …); any region of them is accepted.
    public var instructionLanguages: [String]?
    /// What travel times are made of.
    public var timeModel: TimeModelHealth?

    public init(dataset: String, datasetCreatedAt: String, source: String, timeZone: String, boundingBox: [Double],
                profiles: [String], uptimeSeconds: Int, trafficUpdates: Int, trafficUpdateAgeSeconds: Int? = nil, tiles: Bool,
                apiKeyRequired: Bool, limits: ServiceLimits, http: HTTPLimits? = nil) {
        self.dataset = dataset
        self.datasetCreatedAt = datasetCreatedAt
        self.source = source
        self.timeZone = timeZone
        self.boundingBox = boundingBox
        self.profiles = profiles
        self.uptimeSeconds = uptimeSeconds
        self.trafficUpdates = trafficUpdates
        self.trafficUpdateAgeSeconds = trafficUpdateAgeSeconds
        self.tiles = tiles
        self.apiKeyRequired = apiKeyRequired
        self.limits = limits
        self.http = http
    }
}

/// The HTTP layer's limits (`wayfinder serve --max-body-bytes …`), as `/health` reports them.
public struct HTTPLimits: Sendable, Codable, Equatable {
    public var maxBodyBytes: Int
    public var maxURLBytes: Int
    public var workers: Int
    public var timeoutSeconds: Int

    public init(maxBodyBytes: Int, maxURLBytes: Int, workers: Int, timeoutSeconds: Int) {
        self.maxBodyBytes = maxBodyBytes
        self.maxURLBytes = maxURLBytes
        self.workers = workers
        self.timeoutSeconds = timeoutSeconds
    }
}

/// The sources of travel times in force (`/health`): free flow always; live traffic while updates
/// are in force; weekly profiles only from data (an imported file, speeds learned from live
/// traffic and probes), or the invented demo congestion when the server was started with it.
public struct TimeModelHealth: Sendable, Codable, Equatable {
    /// `freeFlow`, then any of `live`, `importedProfiles`, `learnedProfiles`, `demoCongestion`.
    public var sources: [String]
    /// Whether the invented weekly congestion by road class is on (`serve --demo-congestion`).
    public var demoCongestion: Bool
    /// Lines of the imported speed-profile file found on the road network.
    public var importedProfileSegments: Int
    /// Segments with a learned speed in some quarter-hour of the week, quarter-hours observed, and
    /// quarter-hours that count (at least `minimumObservations` observations).
    public var learnedSegments: Int
    public var learnedObservedSlots: Int
    public var learnedSlots: Int
    public var minimumObservations: Int

    public init(sources: [String], demoCongestion: Bool, importedProfileSegments: Int, learnedSegments: Int, learnedObservedSlots: Int,
                learnedSlots: Int, minimumObservations: Int) {
        self.sources = sources
        self.demoCongestion = demoCongestion
        self.importedProfileSegments = importedProfileSegments
        self.learnedSegments = learnedSegments
        self.learnedObservedSlots = learnedObservedSlots
        self.learnedSlots = learnedSlots
        self.minimumObservations = minimumObservations
    }
}
