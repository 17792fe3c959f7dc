/// Why `MicroHTTPDServer.start()` failed.
public struct ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        case alreadyStarted
        case unresolvableHost(String)
        case startFailed(host: String, port: UInt16, errno: Int32)
    }
    let kind: Kind

    public var description: String {
        switch kind {
        case .alreadyStarted:
            "the server was already started"
        case .unresolvableHost(let host):
            "cannot resolve bind address '\(host)'"
        case .startFailed(let host, let port, let errno):
            "cannot listen on \(host):\(port) (errno \(errno); port in use or not permitted?)"
        }
    }
}
