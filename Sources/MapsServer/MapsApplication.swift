public import Foundation
public import HTTPServer
public import MapsService
public import MapsAPI
import Synchronization
public import TimeToLeave

/// The server's application: the dataset's services and the routes that expose them. The HTTP
/// layer below knows nothing of maps; this is where they meet.
///
/// The current dataset can be replaced while serving (`reload`): handlers read `service` and
/// `tiles` once per request, so a request finishes on the dataset it started with.
public final class MapsApplication: @unchecked Sendable {
    struct State {
        var service: MapsService
        var tiles: MapTiles?
    }

    private let state: Mutex<State>
    public let startedAt = Date()
    public let options: Options
    /// Time-to-leave watches; they outlive dataset reloads. Ticked by `timeToLeave.start()` (serve) or by hand (tests).
    public let timeToLeave: WatchService
    public let quotas: Quotas

    public struct Options: Sendable {
        /// Folder with index.html, app.js, style.css (the web app).
        public var webRoot: String?
        /// Folder with Leaflet (Debian's libjs-leaflet).
        public var leafletRoot: String = "/usr/share/javascript/leaflet"
        /// The HTTP layer's limits, to report in `/health` (set by `serve`).
        public var http: HTTPLimits?
        /// Who may read and write (API keys, operator credentials); by default everyone may
        /// do everything, as fits a server on loopback.
        public var access: AccessPolicy = .open
        /// Quotas per client and server-wide caps.
        public var caps = ServerCaps()
        /// Folder of the watches' store; nil: the dataset's `state/` folder.
        public var watchStateFolder: String?
        public init() { webRoot = MapsApplication.bundledWebRoot }
    }

    /// The web app shipped inside the executable's resource bundle.
    public static var bundledWebRoot: String? {
        Bundle.module.resourceURL.map { $0.appendingPathComponent("web").path }
    }

    public init(service: MapsService, options: Options = Options()) {
        self.options = options
        state = Mutex(State(service: service, tiles: service.openTiles()))
        quotas = Quotas(caps: options.caps)
        var watchLimits = WatchConfiguration()
        watchLimits.maxWatches = options.caps.openWatches
        watchLimits.maxWatchesPerOwner = options.caps.openWatchesPerKey
        timeToLeave = WatchService.opening(planning: service.planning, places: service.placeLookup, stateFolder: options.watchStateFolder ?? service.stateFolder,
                                           configuration: watchLimits) {
            FileHandle.standardError.write(Data(($0 + "\n").utf8))
        }
    }

    public var service: MapsService { state.withLock { $0.service } }
    var tiles: MapTiles? { state.withLock { $0.tiles } }

    /// Swaps in a freshly opened dataset (after a re-import); requests already running finish on the old one.
    public func reload(_ service: MapsService) {
        let tiles = service.openTiles()
        state.withLock { $0 = State(service: service, tiles: tiles) }
        timeToLeave.replacePlanning(service.planning, places: service.placeLookup)
    }

    /// The server's handler: the router behind the access check (keys, operator credentials)
    /// and the server-wide request cap.
    public func handler() -> HTTPHandler {
        let router = self.router()
        let access = options.access, quotas = self.quotas
        return { request in
            access.check(request) ?? (AccessPolicy.isPublic(request.path) ? nil : quotas.admitRequest()) ?? router.handle(request)
        }
    }

    /// The identity a request is counted and owns watches under.
    func identity(_ request: HTTPRequest) -> String { options.access.identity(request) }

    /// Every route of the API, the compatibility endpoints, tiles and the web app.
    public func router() -> Router {
        var router = Router(errorResponder: Self.errorResponder)
        let routing = RoutingHandlers(app: self)
        router.get("/routing/1/calculateRoute/{locations}/{contentType}", routing.calculateRoute)
        router.post("/routing/1/calculateRoute/{locations}/{contentType}", routing.calculateRoute)
        let traffic = TrafficHandlers(app: self)
        router.post("/traffic/1/speeds", traffic.speeds)
        router.post("/traffic/1/closures", traffic.closures)
        router.get("/traffic/1/status", traffic.status)
        let match = MatchHandlers(app: self)
        router.post("/traffic/1/probes", match.probes)
        router.get("/match/v1/{profile}/{coordinates}", match.matchGet)
        router.post("/match/v1/{profile}", match.matchPost)
        let osrm = OSRMHandlers(app: self)
        router.get("/route/v1/{profile}/{coordinates}", osrm.route)
        router.get("/nearest/v1/{profile}/{coordinates}", osrm.nearest)
        router.get("/table/v1/{profile}/{coordinates}", osrm.table)
        let search = SearchHandlers(app: self)
        router.get("/search/2/search/{query}.json", search.search)
        router.get("/search/2/geocode/{query}.json", search.geocode)
        router.get("/search/2/poiSearch/{query}.json", search.poiSearch)
        router.get("/search/2/categorySearch/{query}.json", search.categorySearch)
        router.get("/search/2/nearbySearch/.json", search.nearby)
        router.get("/search/2/reverseGeocode/{position}", search.reverse)
        router.get("/search/2/poiCategories.json", search.categories)
        router.post("/search/2/searchAlongRoute/{query}.json", search.alongRoute)
        let nominatim = NominatimHandlers(app: self)
        router.get("/search", nominatim.search)
        router.get("/search.php", nominatim.search)
        router.get("/reverse", nominatim.reverse)
        router.get("/reverse.php", nominatim.reverse)
        router.get("/api", PhotonHandlers(app: self).search)
        router.get("/tiles/{z}/{x}/{y}.png", TileHandlers(app: self).tile)
        TimeToLeaveHandlers(app: self).register(&router)
        router.get("/health") { [self] _ in health() }
        router.get("/status") { [self] _ in health() }
        router.get("/openapi.json") { _ in .bytes(OpenAPIDocument.bytes, contentType: "application/json") }
        if let leaflet = StaticFiles(root: options.leafletRoot, cacheControl: "public, max-age=86400", indexFile: nil) {
            router.get("/leaflet/*", leaflet.handler)
        }
        if let root = options.webRoot, let web = StaticFiles(root: root, cacheControl: "no-cache") {
            router.get("/", web.handler)
            router.get("/app/*", web.handler)
        }
        return router
    }

    func health() -> HTTPResponse {
        var health = service.health(startedAt: startedAt, tiles: tiles != nil, apiKeyRequired: options.access.keys != nil, http: options.http)
        let writing = options.access.writing
        health.access = ServerAccess(roles: writing == .disabled ? ["read"] : ["read", "write"],
                                     reading: options.access.keys == nil ? "open" : "api key", writing: writing.rawValue, caps: options.caps)
        return JSONResponse.ok(health)
    }

    /// Unknown paths, wrong methods and malformed requests answer in TomTom's error shape.
    public static let errorResponder: ErrorResponder = { error, request in
        if let http = error as? HTTPError {
            let code: APIError.Code = switch http.status.rawValue {
            case 404: .notFound
            case 405: .methodNotAllowed
            case 413: .tooBig
            case 400..<500: .badInput
            default: .internalError
            }
            var response = JSONResponse.error(APIError(code, http.status.rawValue == 404 ? "Not Found: \(request?.path ?? "")" : http.message))
            response.status = http.status
            for field in http.headers { response.headers.add(field.name, field.value) }
            return response
        }
        if let api = error as? APIError { return JSONResponse.error(api) }
        return JSONResponse.error(APIError(.internalError, "internal error"))
    }
}
