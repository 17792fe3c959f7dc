/// An error that knows the HTTP response it should become.
public protocol HTTPResponseError: Error {
    var status: HTTPStatus { get }
    /// The response for this error; the default is a plain-text body.
    func response(for request: HTTPRequest?) -> HTTPResponse
}

/// A generic HTTP error: a status, a human-readable message and extra header fields
/// (such as `Allow` on 405). This module reports 400/404/405/413/414 with it.
public struct HTTPError: HTTPResponseError, Equatable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, _ message: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message ?? status.reasonPhrase
        self.headers = headers
    }

    public var description: String { "\(status.rawValue) \(message)" }

    public func response(for request: HTTPRequest?) -> HTTPResponse {
        var response = HTTPResponse.text(message + "\n", status: status)
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }

    /// `HTTPResponseError`s answer for themselves; anything else becomes a 500 whose body does
    /// not reveal the error (log it in your own responder if you need it).
    public static let defaultResponder: ErrorResponder = { error, request in
        if let e = error as? any HTTPResponseError { return e.response(for: request) }
        return HTTPError(.internalServerError).response(for: request)
    }
}

extension HTTPResponseError {
    public func response(for request: HTTPRequest?) -> HTTPResponse {
        HTTPResponse.text(status.reasonPhrase + "\n", status: status)
    }
}
