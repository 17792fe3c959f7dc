/// What the server did with a live traffic upload (`POST /traffic/1/speeds` or `/closures`, 201).
public struct TrafficUpdateReport: Sendable, Codable, Hashable {
    /// The update's identifier.
    public var id: String
    /// `speeds` or `closures`.
    public var kind: String
    /// Lines received.
    public var entries: Int
    /// Lines of this upload found on the road network.
    public var matchedSegments: Int
    /// Lines of this upload not on the road network (wrong ids, or outside the imported area).
    public var unmatchedSegments: Int
    /// When the update stops counting (RFC 3339 with the dataset's offset).
    public var expiresAt: String
    /// Milliseconds the server spent parsing the upload.
    public var parseMilliseconds: Double
    /// Milliseconds until routes used it.
    public var applyMilliseconds: Double

    public init(id: String, kind: String, entries: Int, matchedSegments: Int, unmatchedSegments: Int, expiresAt: String,
                parseMilliseconds: Double, applyMilliseconds: Double) {
        self.id = id
        self.kind = kind
        self.entries = entries
        self.matchedSegments = matchedSegments
        self.unmatchedSegments = unmatchedSegments
        self.expiresAt = expiresAt
        self.parseMilliseconds = parseMilliseconds
        self.applyMilliseconds = applyMilliseconds
    }
}

/// The live traffic in force on the server (`GET /traffic/1/status`).
public struct TrafficStatusReport: Sendable, Codable {
    /// One update in force.
    public struct Update: Sendable, Codable, Hashable {
        /// The update's identifier.
        public var id: String
        /// `speeds` or `closures`.
        public var kind: String
        /// Lines it had.
        public var entries: Int
        /// Who sent it.
        public var source: String
        /// When it arrived (RFC 3339).
        public var createdAt: String
        /// When it stops counting (RFC 3339).
        public var expiresAt: String

        public init(id: String, kind: String, entries: Int, source: String, createdAt: String, expiresAt: String) {
            self.id = id
            self.kind = kind
            self.entries = entries
            self.source = source
            self.createdAt = createdAt
            self.expiresAt = expiresAt
        }
    }

    /// The traffic state of one travel mode's graph.
    public struct Mode: Sendable, Codable, Hashable {
        /// Increases each time the mode's traffic snapshot is rebuilt.
        public var generation: Int
        /// Road arcs with a live speed.
        public var liveArcs: Int
        /// Road arcs closed.
        public var closedArcs: Int
        /// When the snapshot was built (RFC 3339).
        public var snapshotAt: String

        public init(generation: Int, liveArcs: Int, closedArcs: Int, snapshotAt: String) {
            self.generation = generation
            self.liveArcs = liveArcs
            self.closedArcs = closedArcs
            self.snapshotAt = snapshotAt
        }
    }

    /// The updates in force, oldest first.
    public var updates: [Update]
    /// Per travel mode that uses traffic (`car`, `taxi`).
    public var modes: [String: Mode]

    public init(updates: [Update], modes: [String: Mode]) {
        self.updates = updates
        self.modes = modes
    }
}
