/// Compact JSON written straight into bytes, for the answers that are sent most often (search and
/// reverse geocoding): JSONEncoder builds a tree of boxed values and sorts every object's keys, which
/// costs as much as the search itself for ten results. The writer leaves key order to its caller and
/// writes what JSONEncoder writes with `.withoutEscapingSlashes`: strings escape `"`, `\` and control
/// characters (`\b \f \n \r \t`, the others as `\u00xx`) and keep everything else as UTF-8; doubles are
/// their shortest round-tripping text without a trailing `.0`, and NaN and the infinities are the
/// strings "NaN", "Infinity" and "-Infinity".
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next key or element needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 1_024) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A key of the object being written; its value follows.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func value(_ text: String) { separate(); writeString(text); needsComma = true }

    public mutating func value(_ n: Int64) {
        separate()
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        writeDigits(n.magnitude)
        needsComma = true
    }

    public mutating func value(_ n: Int) { value(Int64(n)) }

    public mutating func value(_ x: Double) {
        guard x.isFinite else { value(x.isNaN ? "NaN" : x < 0 ? "-Infinity" : "Infinity"); return }
        separate()
        var text = x.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    /// `"name": value`, the common case of an object's member.
    public mutating func member(_ name: String, _ text: String) { key(name); value(text) }
    public mutating func member(_ name: String, _ n: Int64) { key(name); value(n) }
    public mutating func member(_ name: String, _ n: Int) { key(name); value(Int64(n)) }
    public mutating func member(_ name: String, _ x: Double) { key(name); value(x) }

    /// An array of strings or doubles.
    public mutating func member(_ name: String, _ texts: [String]) {
        key(name)
        beginArray()
        for t in texts { value(t) }
        endArray()
    }

    public mutating func member(_ name: String, _ numbers: [Double]) {
        key(name)
        beginArray()
        for x in numbers { value(x) }
        endArray()
    }

    /// A string-to-string object, its keys in code-unit order.
    public mutating func member(_ name: String, _ dictionary: [String: String]) {
        key(name)
        beginObject()
        for k in dictionary.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { member(k, dictionary[k]!) }
        endObject()
    }

    /// The member when there is a value, nothing for nil (JSONEncoder leaves a nil optional out).
    public mutating func member(_ name: String, _ text: String?) { if let text { member(name, text) } }
    public mutating func member(_ name: String, _ n: Int64?) { if let n { member(name, n) } }
    public mutating func member(_ name: String, _ n: Int?) { if let n { member(name, n) } }
    public mutating func member(_ name: String, _ x: Double?) { if let x { member(name, x) } }
    public mutating func member(_ name: String, _ texts: [String]?) { if let texts { member(name, texts) } }
    public mutating func member(_ name: String, _ dictionary: [String: String]?) { if let dictionary { member(name, dictionary) } }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeDigits(_ n: UInt64) {
        let start = bytes.count
        var rest = n
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// A quoted string. Bytes of multi-byte UTF-8 sequences are all 0x80 or above, so escaping by byte
    /// is escaping by scalar.
    private mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<i])
                start = i + 1
                bytes.append(UInt8(ascii: "\\"))
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(b)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default: bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hex[Int(b >> 4)], Self.hex[Int(b & 0xF)]])
                }
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
