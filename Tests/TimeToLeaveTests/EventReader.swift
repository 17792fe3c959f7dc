import Foundation
import MapsTestSupport

/// Reads Server-Sent Events off a chunked stream, block by block, keeping the raw text.
final class EventReader {
    struct Event: Equatable {
        var id: String?
        var event: String?
        var data: String
        var retry: Int?
    }

    let connection: RawHTTPConnection
    private(set) var raw = ""
    private var pending = ""
    private(set) var ended = false

    init(_ connection: RawHTTPConnection) { self.connection = connection }

    /// The next event (comments skipped); nil when the stream ended.
    func next() throws -> Event? {
        while true {
            if let range = pending.range(of: "\n\n") {
                let block = String(pending[..<range.lowerBound])
                pending = String(pending[range.upperBound...])
                var e = Event(data: "")
                var data: [String] = []
                for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                    if line.hasPrefix(":") { continue }
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    let field = String(line[..<colon])
                    var value = String(line[line.index(after: colon)...])
                    if value.hasPrefix(" ") { value.removeFirst() }
                    switch field {
                    case "id": e.id = value
                    case "event": e.event = value
                    case "data": data.append(value)
                    case "retry": e.retry = Int(value)
                    default: break
                    }
                }
                if data.isEmpty { continue }
                e.data = data.joined(separator: "\n")
                return e
            }
            if ended { return nil }
            guard let chunk = try connection.readChunk() else { ended = true; continue }
            let text = String(decoding: chunk, as: UTF8.self)
            raw += text
            pending += text
        }
    }
}
