/// Why a request-target could not be parsed; the server answers 400 Bad Request.
public struct RequestTargetError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        case empty
        case notOriginForm
        case invalidCharacter
        case malformedEscape
        case invalidUTF8
    }
    let kind: Kind

    public var description: String {
        switch kind {
        case .empty: "empty request target"
        case .notOriginForm: "request target must start with '/'"
        case .invalidCharacter: "request target contains a control character or space"
        case .malformedEscape: "malformed percent-encoding in request target"
        case .invalidUTF8: "request target is not valid UTF-8 once percent-decoded"
        }
    }
}

/// A parsed request-target (RFC 9112 §3.2): origin-form `/p?q`, absolute-form
/// `http://h/p?q` (authority dropped) or asterisk-form `*`.
struct RequestTarget: Sendable, Equatable {
    /// The path as sent (percent-encoding kept), without query or fragment.
    var rawPath: String
    /// The path split on `/` and percent-decoded: "/" gives [], "/a/" gives ["a", ""].
    var segments: [String]
    var query: QueryParameters

    static func parse(_ raw: [UInt8]) -> Result<RequestTarget, RequestTargetError> {
        if raw.isEmpty { return .failure(.init(kind: .empty)) }
        if raw.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return .failure(.init(kind: .invalidCharacter)) }
        if raw == [UInt8(ascii: "*")] { return .success(RequestTarget(rawPath: "*", segments: [], query: [])) }

        var start = raw.startIndex
        if let afterScheme = schemeEnd(raw) {
            // absolute-form: skip the authority.
            start = raw[afterScheme...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? raw.endIndex
        } else if raw[start] != UInt8(ascii: "/") {
            return .failure(.init(kind: .notOriginForm))
        }
        var end = raw.firstIndex(of: UInt8(ascii: "#")) ?? raw.endIndex
        if end < start { end = start }
        let questionMark = raw[start..<end].firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = raw[start..<(questionMark ?? end)]
        guard let rawPath = pathBytes.isEmpty ? "/" : String(validating: pathBytes, as: UTF8.self) else {
            return .failure(.init(kind: .invalidUTF8))
        }

        var segments: [String] = []
        if pathBytes.count > 1 {
            for piece in pathBytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                switch PercentDecoding.decode(piece) {
                case .success(let s): segments.append(s)
                case .failure(let f): return .failure(.init(f))
                }
            }
        }
        var query = QueryParameters()
        if let q = questionMark {
            switch QueryParameters.parse(raw[raw.index(after: q)..<end]) {
            case .success(let p): query = p
            case .failure(let f): return .failure(.init(f))
            }
        }
        return .success(RequestTarget(rawPath: rawPath, segments: segments, query: query))
    }

    /// Index just past "http://" or "https://" (case-insensitive), if the target starts with one.
    private static func schemeEnd(_ raw: [UInt8]) -> Int? {
        for scheme in ["http://", "https://"] {
            let s = Array(scheme.utf8)
            if raw.count >= s.count, zip(raw, s).allSatisfy({ HTTPHeaders.asciiLower($0) == $1 }) { return s.count }
        }
        return nil
    }
}

extension RequestTargetError {
    init(_ failure: PercentDecoding.Failure) {
        kind = failure == .malformedEscape ? .malformedEscape : .invalidUTF8
    }
}
