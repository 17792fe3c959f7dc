/// Maps method + path patterns to handlers.
///
/// A value type: build it with `add`/`get`/`post`…, then hand `router.handler` to the server.
/// The server holds its own copy, so later changes to the variable do not affect it
/// (build-then-freeze by value semantics).
///
/// Matching uses percent-decoded segments. When several patterns match, literal segments win
/// over parameters, parameters with more literal context (`{y}.png`) over bare ones, and
/// parameters over `*`. Unknown paths give 404; a known path without the method gives 405 with
/// `Allow`. HEAD falls back to the GET handler, and OPTIONS without an explicit route gives 204
/// with `Allow`. All of these, and thrown errors, go through `errorResponder`.
public struct Router: Sendable {
    struct Route: Sendable {
        let pattern: RoutePattern
        let handler: ThrowingHTTPHandler
    }

    struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameters: [(shape: RoutePattern.ParameterShape, child: Int)] = []
        var wildcard: Int?
        var routes: [HTTPMethod: Route] = [:]
    }

    /// The result of looking up a path.
    enum Match {
        case found(Route, values: [String], wildcard: [String])
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private var nodes: [Node] = [Node()]
    private let errorResponder: ErrorResponder

    /// - Parameter errorResponder: turns thrown errors and the router's own 404/405 `HTTPError`s
    ///   into responses.
    public init(errorResponder: @escaping ErrorResponder = HTTPError.defaultResponder) {
        self.errorResponder = errorResponder
    }

    /// Registers `handler` for `method` on `pattern`. Registering the same method and pattern
    /// shape twice is a programmer error and traps.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping ThrowingHTTPHandler) {
        let parsed = RoutePattern(pattern)
        var node = 0
        for segment in parsed.segments {
            switch segment {
            case .literal(let text):
                if let next = nodes[node].literals[text] { node = next } else {
                    nodes.append(Node()); nodes[node].literals[text] = nodes.count - 1; node = nodes.count - 1
                }
            case .parameter(let shape):
                if let existing = nodes[node].parameters.first(where: { $0.shape == shape }) { node = existing.child } else {
                    nodes.append(Node())
                    nodes[node].parameters.append((shape, nodes.count - 1))
                    // Stable sort keeps insertion order among equally specific shapes.
                    let sorted = nodes[node].parameters.enumerated().sorted {
                        ($0.element.shape.specificity, -$0.offset) > ($1.element.shape.specificity, -$1.offset)
                    }.map(\.element)
                    nodes[node].parameters = sorted
                    node = nodes.count - 1
                }
            case .wildcard:
                if let next = nodes[node].wildcard { node = next } else {
                    nodes.append(Node()); nodes[node].wildcard = nodes.count - 1; node = nodes.count - 1
                }
            }
        }
        precondition(nodes[node].routes[method] == nil, "duplicate route \(method) \(pattern)")
        nodes[node].routes[method] = Route(pattern: parsed, handler: handler)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping ThrowingHTTPHandler) { add(.delete, pattern, handler) }

    /// This router as a plain handler function (a frozen copy).
    public var handler: HTTPHandler {
        let frozen = self
        return { frozen.handle($0) }
    }

    /// Routes one request; never throws.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        switch match(request.method, request.pathSegments) {
        case .found(let route, let values, let wildcard):
            var routed = request
            routed.routePattern = route.pattern.text
            routed.wildcardSegments = wildcard
            var parameters: [String: String] = [:]
            for (name, value) in zip(route.pattern.parameterNames, values) { parameters[name] = value }
            routed.pathParameters = parameters
            do { return try route.handler(routed) } catch { return errorResponder(error, routed) }
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if request.method == .options {
                return HTTPResponse(status: .noContent, headers: ["Allow": allow])
            }
            var response = errorResponder(HTTPError(.methodNotAllowed, headers: ["Allow": allow]), request)
            if !response.headers.contains("Allow") { response.headers.add("Allow", allow) }
            return response
        case .notFound:
            return errorResponder(HTTPError(.notFound), request)
        }
    }

    /// The methods a path accepts (including implied HEAD and OPTIONS), or [] for unknown paths.
    public func allowedMethods(forPathSegments segments: [String]) -> [HTTPMethod] {
        var methods = Set<HTTPMethod>()
        var values: [String] = []
        _ = visit(0, segments, 0, &values) { routes, _, _ in
            methods.formUnion(routes.keys)
            return false
        }
        return Self.withImpliedMethods(methods)
    }

    func match(_ method: HTTPMethod, _ segments: [String]) -> Match {
        var found: Match?
        var methods = Set<HTTPMethod>()
        var values: [String] = []
        _ = visit(0, segments, 0, &values) { routes, captured, wildcard in
            if let route = routes[method] ?? (method == .head ? routes[.get] : nil) {
                found = .found(route, values: captured, wildcard: wildcard)
                return true
            }
            methods.formUnion(routes.keys)
            return false
        }
        if let found { return found }
        if methods.isEmpty { return .notFound }
        return .methodNotAllowed(allowed: Self.withImpliedMethods(methods))
    }

    private static func withImpliedMethods(_ methods: Set<HTTPMethod>) -> [HTTPMethod] {
        guard !methods.isEmpty else { return [] }
        var all = methods
        if all.contains(.get) { all.insert(.head) }
        all.insert(.options)
        return all.sorted()
    }

    /// Depth-first search over nodes matching `segments`, in priority order; calls `visitNode`
    /// with the routes of every matching node that has any, plus the captured parameter values
    /// and wildcard segments. Returns true when `visitNode` asked to stop.
    private func visit(_ node: Int, _ segments: [String], _ index: Int, _ values: inout [String],
                       _ visitNode: ([HTTPMethod: Route], [String], [String]) -> Bool) -> Bool {
        let n = nodes[node]
        if index == segments.count, !n.routes.isEmpty, visitNode(n.routes, values, []) { return true }
        if index < segments.count {
            let segment = segments[index]
            if let next = n.literals[segment], visit(next, segments, index + 1, &values, visitNode) { return true }
            for (shape, child) in n.parameters {
                guard let value = shape.match(segment) else { continue }
                values.append(value)
                let stop = visit(child, segments, index + 1, &values, visitNode)
                values.removeLast()
                if stop { return true }
            }
        }
        if let w = n.wildcard, !nodes[w].routes.isEmpty,
           visitNode(nodes[w].routes, values, Array(segments[min(index, segments.count)...])) { return true }
        return false
    }
}
