import Foundation

/// `GET /openapi.json`: the OpenAPI 3.1 description of the API, from the bundled document.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
              let data = try? Data(contentsOf: url) else { return Array("{\"openapi\":\"3.1.0\"}".utf8) }
        return Array(data)
    }()
}
