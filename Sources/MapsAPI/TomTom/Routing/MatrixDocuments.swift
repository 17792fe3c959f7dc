/// TomTom Matrix Routing v2: the request body and the answer of `POST /routing/matrix/2` (and of
/// an asynchronous job's result).
public struct MatrixRequestBody: Codable, Sendable {
    public struct Point: Codable, Sendable {
        public var point: LatLon
        public init(point: LatLon) { self.point = point }
    }

    public struct Options: Codable, Sendable {
        /// `now`, `any` or an RFC 3339 date-time.
        public var departAt: String?
        public var arriveAt: String?
        public var routeType: String?
        public var travelMode: String?
        /// `live` or `historical` (TomTom's default).
        public var traffic: String?
        public var avoid: [String]?
        public init(departAt: String? = nil, arriveAt: String? = nil, routeType: String? = nil, travelMode: String? = nil,
                    traffic: String? = nil, avoid: [String]? = nil) {
            self.departAt = departAt
            self.arriveAt = arriveAt
            self.routeType = routeType
            self.travelMode = travelMode
            self.traffic = traffic
            self.avoid = avoid
        }
    }

    public var origins: [Point]
    public var destinations: [Point]
    public var options: Options?

    public init(origins: [Point], destinations: [Point], options: Options? = nil) {
        self.origins = origins
        self.destinations = destinations
        self.options = options
    }
}

public struct MatrixResponse: Codable, Sendable {
    public struct Cell: Codable, Sendable {
        public var originIndex: Int
        public var destinationIndex: Int
        public var routeSummary: RouteSummary?
        public var detailedError: DetailedError?

        public init(originIndex: Int, destinationIndex: Int, routeSummary: RouteSummary? = nil, detailedError: DetailedError? = nil) {
            self.originIndex = originIndex
            self.destinationIndex = destinationIndex
            self.routeSummary = routeSummary
            self.detailedError = detailedError
        }
    }

    public struct Statistics: Codable, Sendable {
        public var totalCount: Int
        public var successes: Int
        public var failures: Int
        public init(totalCount: Int, successes: Int, failures: Int) {
            self.totalCount = totalCount
            self.successes = successes
            self.failures = failures
        }
    }

    public var data: [Cell]
    public var statistics: Statistics

    public init(data: [Cell], statistics: Statistics) {
        self.data = data
        self.statistics = statistics
    }
}

/// An asynchronous matrix job: `POST /routing/matrix/2/async` answers 202 with it, and
/// `GET /routing/matrix/2/async/{jobId}` reports its state until the result is ready.
public struct MatrixJobStatus: Codable, Sendable {
    public enum State: String, Codable, Sendable { case submitted = "Submitted", inProgress = "InProgress", completed = "Completed", failed = "Failed" }
    public var jobId: String
    public var state: State
    /// Cells of the job (what it costs).
    public var totalCount: Int
    public var statistics: MatrixResponse.Statistics?
    public var error: DetailedError?

    public init(jobId: String, state: State, totalCount: Int, statistics: MatrixResponse.Statistics? = nil, error: DetailedError? = nil) {
        self.jobId = jobId
        self.state = state
        self.totalCount = totalCount
        self.statistics = statistics
        self.error = error
    }
}
