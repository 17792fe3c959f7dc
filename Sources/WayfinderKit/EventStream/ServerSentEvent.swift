/// One message of a `text/event-stream`, as a browser's `EventSource` dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type (`event:` field); `message` when the server gave none.
    public var type: String
    /// The data lines joined with `\n`.
    public var data: String
    /// The stream's last event ID when this event was dispatched (`id:` of this or an earlier
    /// event; "" when none), sent back as `Last-Event-ID` on reconnection.
    public var lastEventID: String

    /// An event of `type` with `data`.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// The WHATWG `text/event-stream` grammar, fed bytes as they arrive in chunks of any size.
///
/// Lines end in CRLF, LF or CR (a CR at the end of one chunk and an LF at the start of the next
/// are one line end); a leading byte-order mark is skipped; `:` lines are comments; `data:`
/// lines accumulate; `id:` values with NUL are ignored; `retry:` takes ASCII digits only; a
/// blank line dispatches the block (nothing when its data is empty); a block the stream ends
/// in the middle of is dropped.
public struct ServerSentEventParser: Sendable {
    /// The last event ID, kept across events and reconnections until an `id:` changes it.
    public private(set) var lastEventID: String
    /// The reconnection delay the server last asked for, in milliseconds.
    public private(set) var retryMilliseconds: Int?

    private var line: [UInt8] = []
    private var afterCR = false
    private var atStreamStart = true
    private var eventType = ""
    private var data: [UInt8] = []
    private var hasData = false

    /// A parser resuming after `lastEventID` (for a reconnection's events).
    public init(lastEventID: String = "") {
        self.lastEventID = lastEventID
    }

    /// Feeds the next bytes; returns the events they complete, in order.
    public mutating func parse(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let e = endLine() { events.append(e) }
            case 0x0A:
                if let e = endLine() { events.append(e) }
            default:
                line.append(byte)
            }
        }
        return events
    }

    /// Starts a new connection's stream: drops any unfinished block and line (the spec's "end
    /// of stream"), keeping ``lastEventID`` and ``retryMilliseconds``.
    public mutating func reset() {
        line = []
        afterCR = false
        atStreamStart = true
        eventType = ""
        data = []
        hasData = false
    }

    private mutating func endLine() -> ServerSentEvent? {
        var bytes = line
        line = []
        if atStreamStart {
            atStreamStart = false
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        }
        if bytes.isEmpty { return dispatch() }
        if bytes[0] == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            field = bytes[..<colon]
            value = bytes[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = bytes[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
               let ms = Int(String(decoding: value, as: UTF8.self)) {
                retryMilliseconds = ms
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = []
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
                               lastEventID: lastEventID)
    }
}
