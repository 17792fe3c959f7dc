/// Who may do what on this server (`/health`'s `access`); never the keys themselves.
public struct ServerAccess: Sendable, Codable, Equatable {
    /// The roles in force: `read` always, `write` when some caller may write.
    public var roles: [String]
    /// How reading is gated: `open` or `api key`.
    public var reading: String
    /// How writing (traffic speeds, closures, probes) is gated: `operator credential`,
    /// `open on loopback` (no credential, and the server listens on loopback only) or `disabled`.
    public var writing: String
    public var caps: ServerCaps

    public init(roles: [String], reading: String, writing: String, caps: ServerCaps) {
        self.roles = roles
        self.reading = reading
        self.writing = writing
        self.caps = caps
    }
}

/// Quotas per key (or per server when keys are off, where every caller is one anonymous
/// client) and server-wide caps. Beyond a quota: 429 with `Retry-After`; beyond a server-wide
/// cap: 503 with `Retry-After`. A nil cap is off.
public struct ServerCaps: Sendable, Codable, Equatable {
    public var openWatches: Int
    public var openWatchesPerKey: Int
    public var eventStreams: Int
    public var eventStreamsPerKey: Int
    /// Requests a minute across all callers (`serve --max-requests-per-minute`); off by default.
    public var requestsPerMinute: Int?
    /// Matrix cells (`/table/v1` sources × destinations) a minute.
    public var matrixCellsPerMinute: Int
    public var matrixCellsPerMinutePerKey: Int
    /// GPS probe points a minute.
    public var probePointsPerMinute: Int
    public var probePointsPerMinutePerKey: Int

    public init(openWatches: Int = 100_000, openWatchesPerKey: Int = 100, eventStreams: Int = 1000, eventStreamsPerKey: Int = 20,
                requestsPerMinute: Int? = nil, matrixCellsPerMinute: Int = 10_000_000, matrixCellsPerMinutePerKey: Int = 1_000_000,
                probePointsPerMinute: Int = 2_000_000, probePointsPerMinutePerKey: Int = 500_000) {
        self.openWatches = openWatches
        self.openWatchesPerKey = openWatchesPerKey
        self.eventStreams = eventStreams
        self.eventStreamsPerKey = eventStreamsPerKey
        self.requestsPerMinute = requestsPerMinute
        self.matrixCellsPerMinute = matrixCellsPerMinute
        self.matrixCellsPerMinutePerKey = matrixCellsPerMinutePerKey
        self.probePointsPerMinute = probePointsPerMinute
        self.probePointsPerMinutePerKey = probePointsPerMinutePerKey
    }
}
