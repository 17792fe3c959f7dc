/// `Content-Type` values by file extension, for `StaticFiles`.
enum MediaType {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "json": "application/json", "map": "application/json", "geojson": "application/geo+json",
        "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8", "xml": "application/xml",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "ico": "image/x-icon", "avif": "image/avif",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "pbf": "application/x-protobuf", "mvt": "application/vnd.mapbox-vector-tile",
        "pdf": "application/pdf", "gz": "application/gzip", "zip": "application/zip",
    ]

    /// The type for `fileName`'s extension (case-insensitive), or `application/octet-stream`.
    static func forFileName(_ fileName: String) -> String {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return "application/octet-stream" }
        let ext = HTTPHeaders.asciiLowercased(String(fileName[fileName.index(after: dot)...]))
        return byExtension[ext] ?? "application/octet-stream"
    }
}
