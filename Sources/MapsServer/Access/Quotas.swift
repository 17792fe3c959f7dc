import Foundation
import HTTPServer
public import MapsAPI

/// The server's quotas and caps (`ServerCaps`): metered amounts a minute per identity and in
/// all, and open event streams. Open watches are counted by the watches themselves.
public final class Quotas: Sendable {
    public let caps: ServerCaps
    let buckets: TokenBuckets
    let streams: Slots

    public convenience init(caps: ServerCaps) { self.init(caps: caps, clock: { Date().timeIntervalSince1970 }) }

    init(caps: ServerCaps, clock: @escaping @Sendable () -> Double) {
        self.caps = caps
        buckets = TokenBuckets(clock: clock)
        streams = Slots(perName: caps.eventStreamsPerKey, total: caps.eventStreams)
    }

    /// What is metered by amount.
    enum Metered: String {
        case matrixCells = "matrix cells"
        case probePoints = "probe points"
    }

    /// The server-wide request cap, when one is set: 503 with `Retry-After` beyond it.
    func admitRequest() -> HTTPResponse? {
        guard let cap = caps.requestsPerMinute, let seconds = buckets.take(1, from: "server requests", perMinute: Double(cap)) else { return nil }
        return AccessResponses.full("the server takes \(cap) requests a minute and has had them; retry in \(seconds) s", retryAfter: seconds)
    }

    /// Charges `amount` of `what` to `identity`: nil when within the quota and the server's cap;
    /// 413 for more than a whole minute's quota at once; 429 (the caller's quota) or 503 (the
    /// server's) with `Retry-After` otherwise.
    func charge(_ amount: Int, of what: Metered, identity: String) -> HTTPResponse? {
        let (perKey, total) = what == .matrixCells ? (caps.matrixCellsPerMinutePerKey, caps.matrixCellsPerMinute)
                                                   : (caps.probePointsPerMinutePerKey, caps.probePointsPerMinute)
        guard amount <= min(perKey, total) else {
            return JSONResponse.error(APIError(.tooBig, "\(amount) \(what.rawValue) is more than a minute's quota of \(min(perKey, total))"))
        }
        if let seconds = buckets.take(Double(amount), from: what.rawValue + " " + identity, perMinute: Double(perKey)) {
            return AccessResponses.limited("this client's \(perKey) \(what.rawValue) a minute are used up; retry in \(seconds) s", retryAfter: seconds)
        }
        if let seconds = buckets.take(Double(amount), from: what.rawValue, perMinute: Double(total)) {
            return AccessResponses.full("the server's \(total) \(what.rawValue) a minute are used up; retry in \(seconds) s", retryAfter: seconds)
        }
        return nil
    }

    /// Takes an event-stream slot for `identity`, or the 429/503 that refuses it.
    func openStream(_ identity: String) -> HTTPResponse? {
        switch streams.acquire(identity) {
        case nil: return nil
        case .nameFull?:
            return AccessResponses.limited("this client has \(caps.eventStreamsPerKey) event streams open, its most; close one first", retryAfter: 5)
        case .serverFull?:
            return AccessResponses.full("the server has \(caps.eventStreams) event streams open, its most", retryAfter: 5)
        }
    }

    func closeStream(_ identity: String) { streams.release(identity) }
}
