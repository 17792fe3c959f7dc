/// Strict percent-decoding (RFC 3986 §2.1) into validated UTF-8.
///
/// A `%` not followed by two hex digits, or bytes that are not UTF-8 after decoding, are
/// errors rather than being passed through, so a handler never sees two spellings of one value.
enum PercentDecoding {
    enum Failure: Error, Equatable {
        case malformedEscape
        case invalidUTF8
    }

    /// Decodes `bytes`; with `plusAsSpace` (query strings, HTML forms) `+` becomes a space.
    static func decode<C: Collection>(_ bytes: C, plusAsSpace: Bool = false) -> Result<String, Failure>
    where C.Element == UInt8 {
        // Fast path: nothing to decode.
        if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            guard let s = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidUTF8) }
            return .success(s)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%") {
                let h = bytes.index(after: i)
                guard h != bytes.endIndex else { return .failure(.malformedEscape) }
                let l = bytes.index(after: h)
                guard l != bytes.endIndex, let hi = hexValue(bytes[h]), let lo = hexValue(bytes[l]) else {
                    return .failure(.malformedEscape)
                }
                out.append(hi << 4 | lo)
                i = bytes.index(after: l)
            } else {
                out.append(plusAsSpace && b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
                i = bytes.index(after: i)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { return .failure(.invalidUTF8) }
        return .success(s)
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-encodes everything outside RFC 3986 "unreserved" plus `/` (for building paths, e.g. redirects).
    static func encodePath(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(b >> 4)], hex[Int(b & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}
