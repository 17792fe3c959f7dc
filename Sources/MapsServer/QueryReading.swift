import Foundation
import HTTPServer
import MapsAPI
import GeoCore

/// Typed reading of query parameters, each failure a BAD_INPUT that names the parameter.
struct QueryReader {
    let query: QueryParameters

    func string(_ name: String) -> String? { query[name] }

    func bool(_ name: String, default value: Bool) throws(APIError) -> Bool {
        guard let text = query[name] else { return value }
        switch text.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: throw APIError.badInput("\(name) must be true or false, not \"\(text)\"", parameter: name)
        }
    }

    func int(_ name: String, default value: Int, range: ClosedRange<Int>) throws(APIError) -> Int {
        guard let text = query[name] else { return value }
        guard let n = Int(text), range.contains(n) else {
            throw APIError.badInput("Invalid value for \(name): \(text). Value must be an integer in the range [\(range.lowerBound), \(range.upperBound)]", parameter: name)
        }
        return n
    }

    func double(_ name: String, range: ClosedRange<Double>) throws(APIError) -> Double? {
        guard let text = query[name] else { return nil }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw APIError.badInput("Invalid value for \(name): \(text). Value must be a number in the range [\(range.lowerBound), \(range.upperBound)]", parameter: name)
        }
        return v
    }

    /// Values of a repeatable parameter, also accepting comma-joined values.
    func list(_ name: String) -> [String] {
        query.values(name).flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
    }

    func oneOf<T>(_ name: String, _ choices: [String: T], default value: T) throws(APIError) -> T {
        guard let text = query[name] else { return value }
        guard let v = choices[text] else {
            throw APIError.badInput("\(name) must be one of \(choices.keys.sorted().joined(separator: ", ")), not \"\(text)\"", parameter: name)
        }
        return v
    }
}

enum CoordinateText {
    /// "lat,lon" with a clear error naming the parameter.
    static func parse(_ text: String, parameter: String) throws(APIError) -> Coordinate {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)) else {
            throw APIError.badInput("\"\(text.prefix(60))\" is not a \"latitude,longitude\" pair", parameter: parameter)
        }
        guard Coordinate.isValid(latitude: lat, longitude: lon) else {
            throw APIError.badInput("Invalid request: invalid position \(text.prefix(60)): latitude must be in [-90, 90] and longitude in [-180, 180]", parameter: parameter)
        }
        return Coordinate(latitude: lat, longitude: lon)
    }
}
