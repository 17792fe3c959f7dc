/// One Server-Sent Events message, encoded per the WHATWG `text/event-stream` grammar.
///
/// `data` is split on CRLF, LF and CR into one `data:` line each (the browser joins them back
/// with "\n"). Line breaks and NUL are removed from `id` and `event`, which must be one line.
/// A message with `data == nil` dispatches nothing in the browser but still sets `id`/`retry`.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: String?
    public var event: String?
    public var data: String?
    /// Reconnection delay the browser should use, in milliseconds.
    public var retryMilliseconds: Int?

    public init(id: String? = nil, event: String? = nil, data: String? = nil, retryMilliseconds: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retryMilliseconds = retryMilliseconds
    }

    /// The wire form, ending with the blank line that dispatches it.
    public var encoded: String {
        var out = ""
        if let retryMilliseconds, retryMilliseconds >= 0 { out += "retry: \(retryMilliseconds)\n" }
        if let id { out += "id: " + Self.oneLine(id) + "\n" }
        if let event, !event.isEmpty { out += "event: " + Self.oneLine(event) + "\n" }
        if let data {
            for line in Self.lines(data) { out += "data: " + line + "\n" }
        }
        return out + "\n"
    }

    /// A comment block (`: text` per line), ignored by browsers; used as keep-alive.
    public static func comment(_ text: String) -> String {
        lines(text).map { ": " + $0 + "\n" }.joined()
    }

    /// Splits on CRLF, LF or CR, keeping empty lines ("a\n\nb" is three lines).
    static func lines(_ text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex {
            // "\r\n" is a single Character in Swift, so one check covers all three breaks.
            if text[i] == "\n" || text[i] == "\r" || text[i] == "\r\n" {
                result.append(text[start..<i])
                start = text.index(after: i)
            }
            i = text.index(after: i)
        }
        result.append(text[start...])
        return result
    }

    private static func oneLine(_ s: String) -> String {
        String(s.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != "\0" })
    }
}
