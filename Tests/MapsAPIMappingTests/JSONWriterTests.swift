import Testing
import Foundation
import MapsAPI

/// JSONWriter against JSONEncoder (`.sortedKeys, .withoutEscapingSlashes`, non-finite doubles as strings),
/// byte for byte.
@Suite("JSONWriter") struct JSONWriterTests {
    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return Array(try encoder.encode(value))
    }

    static func written(_ write: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter()
        write(&w)
        return w.bytes
    }

    static let controls = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()

    @Test(arguments: ["", "plain", "quote \" and backslash \\", "slash / stays", controls, "tab\tline\nreturn\r\u{8}\u{c}",
                      "\u{7f} delete", "Hôtel de Paris", "Ελληνικά", "東京", "emoji 🗺️", "\u{2028}\u{2029}", "\u{0}nul"])
    func strings(_ text: String) throws {
        #expect(try Self.encoded([text]) == Self.written { w in
            w.beginArray()
            w.value(text)
            w.endArray()
        })
    }

    @Test(arguments: [0.0, -0.0, 1.0, 0.5, 0.1, 0.30000000000000004, 1e-05, 1e-7, 123456.789, 1e16, 1.5e300, -7.4246,
                      43.7384123, .nan, .infinity, -.infinity, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude])
    func doubles(_ x: Double) throws {
        #expect(try Self.encoded([x]) == Self.written { w in
            w.beginArray()
            w.value(x)
            w.endArray()
        })
    }

    @Test(arguments: [Int64.min, -1, 0, 7, 10, 1_234_567_890_123, Int64.max])
    func integers(_ n: Int64) throws {
        #expect(try Self.encoded([n]) == Self.written { w in
            w.beginArray()
            w.value(n)
            w.endArray()
        })
    }

    @Test func nestedObjectsAndDictionaries() throws {
        struct Shape: Encodable {
            var a: [String: String]
            var b: [Double]
            var c: [String]
            var d: Int
        }
        let tags = ["name:fr": "Monaco", "alt_name": "Mónaco \"MC\"", "name": "x", "addr:street": "Rue\n"]
        let value = Shape(a: tags, b: [1, 2.5], c: [], d: -3)
        #expect(try Self.encoded(value) == Self.written { w in
            w.beginObject()
            w.member("a", tags)
            w.member("b", [1, 2.5])
            w.member("c", [String]())
            w.member("d", -3)
            w.endObject()
        })
    }

    /// A label twice (a locality's own type and an area above it): JSONEncoder kept the last value.
    @Test func addressWithARepeatedLabel() throws {
        let address = NominatimAddress([("suburb", "Monte-Carlo"), ("city", "Monaco"), ("suburb", "La Condamine"), ("country_code", "mc")])
        let before = try JSONSerialization.jsonObject(with: Data(try Self.encoded(address))) as? [String: String]
        let after = try JSONSerialization.jsonObject(with: Data(Self.written { address.write(to: &$0) })) as? [String: String]
        #expect(before == after)
        #expect(String(decoding: Self.written { address.write(to: &$0) }, as: UTF8.self)
                == #"{"suburb":"La Condamine","city":"Monaco","country_code":"mc"}"#)
    }
}
