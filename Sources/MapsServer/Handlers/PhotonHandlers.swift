import Foundation
import HTTPServer
import MapsAPI
import MapsService
import GeoCore

/// Photon's `/api?q=` (komoot/photon): search as you type, answered in Photon's GeoJSON, so Photon
/// clients work unchanged. The last word is always read as the start of a word, as Photon does.
struct PhotonHandlers {
    let app: MapsApplication

    static func failure(_ message: String) -> HTTPResponse {
        HTTPResponse.json(JSONResponse.encode(PhotonError(message: message)), status: .badRequest)
    }

    static let types: Set<String> = ["house", "street", "locality", "district", "city", "county", "state", "country", "other"]

    func search(_ request: HTTPRequest) -> HTTPResponse {
        let q = request.query
        let text = (q["q"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return Self.failure("missing search term 'q': /api?q=berlin") }
        guard text.count <= 256 else { return Self.failure("the search term 'q' is longer than 256 characters") }
        if q["debug"] != nil && q["debug"] != "0" && q["debug"] != "false" { return Self.failure("Parameter 'debug' is not supported") }
        let limitText = q["limit"] ?? "15"
        guard let limit = Int(limitText), limit >= 1 else { return Self.failure("Parameter 'limit' must be a positive integer (not \(limitText))") }
        var query = PlaceSearchQuery(text: text, typeahead: true, limit: min(limit, 50, app.service.limits.maxSearchResults),
                                     language: q["lang"] ?? request.headers["Accept-Language"])
        let lat = q["lat"].flatMap(Double.init), lon = q["lon"].flatMap(Double.init)
        if (q["lat"] != nil || q["lon"] != nil) {
            guard let lat, let lon, Coordinate.isValid(latitude: lat, longitude: lon) else {
                return Self.failure("Parameters 'lat' and 'lon' must both be given, as numbers within [-90, 90] and [-180, 180]")
            }
            query.bias = Coordinate(latitude: lat, longitude: lon)
        }
        var weighting = LocationBias()
        if let text = q["location_bias_scale"] {
            guard let scale = Double(text), (0...1).contains(scale) else { return Self.failure("Parameter 'location_bias_scale' must be a number in [0, 1]") }
            weighting.prominence = scale
        }
        if let text = q["zoom"] {
            guard let zoom = Int(text), (0...18).contains(zoom) else { return Self.failure("Parameter 'zoom' must be an integer in [0, 18]") }
            weighting.halfDistanceMeters = LocationBias.halfDistance(photonZoom: zoom)
        }
        query.biasWeighting = weighting
        if let bbox = q["bbox"] {
            let v = bbox.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard v.count == 4, Coordinate.isValid(latitude: v[1], longitude: v[0]), Coordinate.isValid(latitude: v[3], longitude: v[2]) else {
                return Self.failure("Parameter 'bbox' must be minLon,minLat,maxLon,maxLat")
            }
            query.boundingBox = BoundingBox(south: min(v[1], v[3]), west: min(v[0], v[2]), north: max(v[1], v[3]), east: max(v[0], v[2]))
        }
        var tags: [PhotonTagFilter] = []
        for value in q.values("osm_tag") {
            guard let filter = PhotonTagFilter(value) else { return Self.failure("Parameter 'osm_tag' must be key, key:value, :value, !key, !key:value or key:!value (not \(value))") }
            tags.append(filter)
        }
        var types = Set<String>()
        for value in q.values("layer").flatMap({ $0.split(separator: ",").map(String.init) }) {
            guard Self.types.contains(value) else { return Self.failure("Parameter 'layer' must be one of \(Self.types.sorted().joined(separator: ", ")) (not \(value))") }
            types.insert(value)
        }
        if let dedupe = q["dedupe"], !["0", "1", "true", "false"].contains(dedupe) { return Self.failure("Parameter 'dedupe' must be 0 or 1") }
        do {
            return JSONResponse.ok(try app.service.photonSearch(query, tags: tags, types: types))
        } catch {
            return error.httpStatus == 400 ? Self.failure(error.message) : JSONResponse.error(error)
        }
    }
}
