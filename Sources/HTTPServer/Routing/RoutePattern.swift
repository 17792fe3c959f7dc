/// A parsed route pattern such as `/routing/1/calculateRoute/{locations}/{contentType}`,
/// `/tiles/{z}/{x}/{y}.png` or `/static/*`.
///
/// Segment forms: a literal (`routing`), one parameter with optional literal prefix and suffix
/// (`{locations}`, `{y}.png`, `v{version}`), or a trailing `*` that matches the rest of the
/// path (zero or more segments). Parameters match one non-empty segment after percent-decoding,
/// so `%2C`, `%3A` and `%20` arrive as `,`, `:` and space.
struct RoutePattern: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(ParameterShape)
        case wildcard
    }

    /// The literal text around a parameter; the parameter's name is kept by the route.
    struct ParameterShape: Sendable, Hashable {
        var prefix: String
        var suffix: String

        /// The parameter value if `segment` fits the shape (the value must be non-empty).
        func match(_ segment: String) -> String? {
            guard segment.count > prefix.count + suffix.count,
                  segment.hasPrefix(prefix), segment.hasSuffix(suffix) else { return nil }
            return String(segment.dropFirst(prefix.count).dropLast(suffix.count))
        }

        /// Longer literal context is more specific and is tried first.
        var specificity: Int { prefix.count + suffix.count }
    }

    let text: String
    let segments: [Segment]
    /// Parameter names in path order.
    let parameterNames: [String]

    /// Parses a pattern; a malformed pattern is a programmer error and traps.
    init(_ text: String) {
        precondition(text.hasPrefix("/"), "route pattern must start with '/': \(text)")
        self.text = text
        var segments: [Segment] = []
        var names: [String] = []
        let pieces = text == "/" ? [] : text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (i, piece) in pieces.enumerated() {
            if piece == "*" {
                precondition(i == pieces.count - 1, "'*' must be the last segment: \(text)")
                segments.append(.wildcard)
            } else if let open = piece.firstIndex(of: "{") {
                guard let close = piece.firstIndex(of: "}"), open < close else {
                    preconditionFailure("unbalanced '{' in route pattern: \(text)")
                }
                let name = String(piece[piece.index(after: open)..<close])
                let suffix = piece[piece.index(after: close)...]
                precondition(!name.isEmpty && !suffix.contains("{") && !suffix.contains("}"),
                             "one named parameter per segment: \(text)")
                precondition(!names.contains(name), "duplicate parameter '\(name)' in \(text)")
                names.append(name)
                segments.append(.parameter(ParameterShape(prefix: String(piece[..<open]), suffix: String(suffix))))
            } else {
                precondition(!piece.contains("}"), "stray '}' in route pattern: \(text)")
                segments.append(.literal(String(piece)))
            }
        }
        self.segments = segments
        self.parameterNames = names
    }
}
