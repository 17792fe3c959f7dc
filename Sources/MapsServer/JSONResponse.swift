import Foundation
import HTTPServer
import MapsAPI

/// JSON encoding shared by every handler: stable key order, no escaped slashes, compact.
enum JSONResponse {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        // Encoding our own Codable types cannot fail; an empty object is the safe answer if it did.
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }

    static func ok<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> HTTPResponse {
        ok(json: encode(value), status: status)
    }

    /// TomTom's search envelope, the answer most often sent after Nominatim's: written by its own writer
    /// (the same bytes as `encode`, at a fraction of the cost).
    static func ok(_ response: SearchResponse) -> HTTPResponse { ok(json: response.json) }

    /// A body already written as JSON.
    static func ok(json body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        var r = HTTPResponse.json(body, status: status)
        r.headers.set("Cache-Control", "no-store")
        return r
    }

    /// TomTom's error body with the status TomTom uses.
    static func error(_ error: APIError) -> HTTPResponse {
        HTTPResponse.json(encode(error.body), status: HTTPStatus(error.httpStatus))
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], parameter: String = "body") throws(APIError) -> T {
        guard !body.isEmpty else { throw APIError.badInput("the request body is empty; send JSON", parameter: parameter) }
        // JSON is UTF-8 (RFC 8259); the decoder would let invalid bytes through in strings it skips.
        guard String(validating: body, as: UTF8.self) != nil else {
            throw APIError.badInput("the body is not valid UTF-8", parameter: parameter)
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch DecodingError.dataCorrupted(let context) {
            throw APIError.badInput("the body is not valid JSON: \(context.debugDescription)", parameter: parameter)
        } catch DecodingError.keyNotFound(let key, _) {
            throw APIError.badInput("the body lacks \"\(key.stringValue)\"", parameter: parameter)
        } catch DecodingError.typeMismatch(_, let context) {
            throw APIError.badInput("\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type", parameter: parameter)
        } catch DecodingError.valueNotFound(_, let context) {
            throw APIError.badInput("\(context.codingPath.map(\.stringValue).joined(separator: ".")) is null", parameter: parameter)
        } catch {
            throw APIError.badInput("the body could not be read: \(error)", parameter: parameter)
        }
    }
}
