/// Answers one request. Runs on a server worker thread, concurrently with other requests, so it
/// must be thread-safe; it should not block for long (a blocked handler holds a worker).
public typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

/// A handler that may throw; `Router` turns the error into a response with its `ErrorResponder`.
public typealias ThrowingHTTPHandler = @Sendable (HTTPRequest) throws -> HTTPResponse

/// Turns an error (thrown by a handler, or a protocol error such as 404/405/413 produced by this
/// module as an `HTTPError`) into the response the client sees. The application supplies one to
/// give errors its own shape (for example a JSON `{"code":…,"message":…}` document).
public typealias ErrorResponder = @Sendable (any Error, HTTPRequest?) -> HTTPResponse

/// Wraps a throwing handler so errors become responses through `errorResponder`.
public func catchingErrors(_ handler: @escaping ThrowingHTTPHandler,
                           errorResponder: @escaping ErrorResponder = HTTPError.defaultResponder) -> HTTPHandler {
    { request in
        do { return try handler(request) } catch { return errorResponder(error, request) }
    }
}
