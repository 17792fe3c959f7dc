import Foundation
import HTTPServer
import MapsAPI
import GeoCore
import MapsService

/// `GET /tiles/{z}/{x}/{y}.png`: rendered on demand, cached on disk under `state/tiles/<dataset>`,
/// with an ETag that changes with the dataset and the style (so browsers may keep tiles a day).
struct TileHandlers {
    let app: MapsApplication
    static let maxZoom = 20

    func tile(_ request: HTTPRequest) -> HTTPResponse {
        guard let z = Int(request.pathParameters["z"] ?? ""), let x = Int(request.pathParameters["x"] ?? ""),
              let y = Int(request.pathParameters["y"] ?? ""), z <= Self.maxZoom, let tile = TileID(zoom: z, x: x, y: y) else {
            return JSONResponse.error(APIError(.notFound, "no such tile: zoom 0...\(Self.maxZoom), x and y within the zoom's grid"))
        }
        guard let tiles = app.tiles else {
            return JSONResponse.error(APIError(.notFound, "this dataset has no base map; re-import it"))
        }
        switch tiles.tile(tile, ifNoneMatch: request.headers["if-none-match"]) {
        case .notModified(let etag):
            var r = HTTPResponse(status: .notModified)
            r.headers.set("ETag", etag)
            return r
        case .png(let png, let etag):
            var r = HTTPResponse.bytes(png, contentType: "image/png")
            r.headers.set("ETag", etag)
            r.headers.set("Cache-Control", "public, max-age=86400")
            return r
        case .renderFailed:
            return JSONResponse.error(APIError(.internalError, "the tile could not be rendered"))
        }
    }
}
