import Testing
@testable import HTTPServer

@Suite("Router (no socket)")
struct RouterTests {
    /// Echoes the matched pattern and parameters so assertions can see what routed where.
    static func echo(_ tag: String) -> ThrowingHTTPHandler {
        { request in
            let params = request.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            return .text("\(tag) \(params) [\(request.wildcardSegments.joined(separator: "|"))]")
        }
    }

    static func router() -> Router {
        var r = Router()
        r.get("/routing/1/calculateRoute/{locations}/{contentType}", echo("route"))
        r.get("/tiles/{z}/{x}/{y}.png", echo("png"))
        r.get("/tiles/{z}/{x}/{y}", echo("bare"))
        r.get("/tiles/{z}/{x}/special", echo("literal"))
        r.get("/static/*", echo("static"))
        r.get("/", echo("root"))
        r.post("/items", echo("create"))
        r.delete("/items/{id}", echo("delete"))
        r.get("/items/{id}", echo("read"))
        return r
    }

    func call(_ method: HTTPMethod, _ target: String, router: Router = RouterTests.router()) throws -> HTTPResponse {
        router.handle(try HTTPRequest(method: method, target: target))
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body.bytes ?? [], as: UTF8.self) }

    @Test func matchesParametersAndDecodesThem() throws {
        let r = try call(.get, "/routing/1/calculateRoute/52.50931%2C13.42936%3A52.50274%2C13.43872/json")
        #expect(r.status == .ok)
        #expect(text(r) == "route contentType=json&locations=52.50931,13.42936:52.50274,13.43872 []")
        let spaced = try call(.get, "/items/a%20b")
        #expect(text(spaced) == "read id=a b []")
        // An encoded slash stays inside its segment instead of splitting the path.
        let slash = try call(.get, "/items/a%2Fb")
        #expect(text(slash) == "read id=a/b []")
    }

    @Test func prefersLiteralThenAffixedThenBareParameters() throws {
        #expect(text(try call(.get, "/tiles/5/17/special")) == "literal x=17&z=5 []")
        #expect(text(try call(.get, "/tiles/5/17/11.png")) == "png x=17&y=11&z=5 []")
        #expect(text(try call(.get, "/tiles/5/17/11")) == "bare x=17&y=11&z=5 []")
        // The suffix alone is not a value: `{y}` must be non-empty.
        #expect(text(try call(.get, "/tiles/5/17/.png")) == "bare x=17&y=.png&z=5 []")
    }

    @Test func wildcardTakesTheRestOfThePath() throws {
        #expect(text(try call(.get, "/static/css/app.css")) == "static  [css|app.css]")
        #expect(text(try call(.get, "/static/")) == "static  []")
        #expect(text(try call(.get, "/static")) == "static  []")
        #expect(text(try call(.get, "/static/a%2Fb/c")) == "static  [a/b|c]")
    }

    @Test func rootAndUnknownPaths() throws {
        #expect(text(try call(.get, "/")) == "root  []")
        #expect(try call(.get, "/nope").status == .notFound)
        #expect(try call(.get, "/tiles/5/17").status == .notFound)
        #expect(try call(.get, "/items/1/extra").status == .notFound)
        #expect(try call(.get, "/routing/1/calculateRoute//json").status == .notFound)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let r = try call(.put, "/items/7")
        #expect(r.status == .methodNotAllowed)
        #expect(r.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        let post = try call(.get, "/items")
        #expect(post.status == .methodNotAllowed)
        #expect(post.headers["allow"] == "OPTIONS, POST")
    }

    @Test func headFallsBackToGetAndOptionsListsMethods() throws {
        let head = try call(.head, "/items/3")
        #expect(head.status == .ok)
        #expect(text(head) == "read id=3 []")
        let options = try call(.options, "/items/3")
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        #expect(RouterTests.router().allowedMethods(forPathSegments: ["items", "3"]) == [.delete, .get, .head, .options])
        #expect(RouterTests.router().allowedMethods(forPathSegments: ["zzz"]) == [])
    }

    @Test func repeatedQueryParametersAreAllKept() throws {
        var router = Router()
        router.get("/q") { request in
            .text(request.query.values("avoid").joined(separator: ",") + "|" + (request.query["unit"] ?? "-"))
        }
        let r = try call(.get, "/q?avoid=tollRoads&unit=km&avoid=ferries&avoid=a%26b+c", router: router)
        #expect(text(r) == "tollRoads,ferries,a&b c|km")
    }

    @Test func thrownErrorsGoThroughTheErrorResponder() throws {
        struct Boom: Error {}
        var router = Router(errorResponder: { error, _ in
            if let e = error as? HTTPError { return .text("custom \(e.status.rawValue)", status: e.status) }
            return .text("custom 500", status: .internalServerError)
        })
        router.get("/boom") { _ in throw Boom() }
        router.get("/teapot") { _ in throw HTTPError(HTTPStatus(418), "short and stout") }
        router.post("/only-post") { _ in .text("ok") }
        #expect(text(try call(.get, "/boom", router: router)) == "custom 500")
        #expect(try call(.get, "/teapot", router: router).status.rawValue == 418)
        #expect(text(try call(.get, "/missing", router: router)) == "custom 404")
        let notAllowed = try call(.get, "/only-post", router: router)
        #expect(text(notAllowed) == "custom 405")
        #expect(notAllowed.headers["Allow"] == "OPTIONS, POST")   // kept even though the responder dropped it
    }

    @Test func defaultResponderHidesUnknownErrors() throws {
        struct Secret: Error {}
        var router = Router()
        router.get("/x") { _ in throw Secret() }
        let r = try call(.get, "/x", router: router)
        #expect(r.status == .internalServerError)
        #expect(!text(r).contains("Secret"))
    }

    @Test func routerIsFrozenWhenCopiedIntoAHandler() throws {
        var router = Router()
        router.get("/a") { _ in .text("a") }
        let handler = router.handler
        router.get("/b") { _ in .text("b") }
        #expect(handler(try HTTPRequest(method: .get, target: "/b")).status == .notFound)
        #expect(router.handle(try HTTPRequest(method: .get, target: "/b")).status == .ok)
    }
}
