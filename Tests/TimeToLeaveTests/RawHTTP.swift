import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback HTTP/1.1 client for tests that must see the wire (chunked event streams).
/// Every read times out, so no test can hang.
final class RawHTTP {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Head {
        var status: Int
        var headers: [String: String]
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16, timeoutSeconds: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - Double(Int(timeoutSeconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect failed: errno \(errno)")
        }
    }

    deinit { Glibc.close(fd) }

    func closeNow() { shutdown(fd, Int32(SHUT_RDWR)) }

    func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for h in headers { head += h + "\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\nContent-Type: application/json\r\n" }
        let bytes = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { buffer += chunk[..<n]; return true }
            if n == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw Failure(description: "read timed out") }
            if errno == ECONNRESET { return false }
            throw Failure(description: "recv failed: errno \(errno)")
        }
    }

    func readLine() throws -> String {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<i])
                buffer.removeFirst(i + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard try fill() else { throw Failure(description: "connection closed mid-line") }
        }
    }

    func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed mid-body") }
        }
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    func readHead() throws -> Head {
        let status = try readLine().split(separator: " ")
        guard status.count >= 2, let code = Int(status[1]) else { throw Failure(description: "bad status line") }
        var headers: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Head(status: code, headers: headers)
    }

    /// One chunk of a chunked body; nil at the last (zero-size) chunk.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw Failure(description: "bad chunk size \"\(sizeLine)\"")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// A whole response: head and body (Content-Length, chunked, or none).
    func readResponse() throws -> (Head, String) {
        let head = try readHead()
        if head.status == 204 || head.status == 304 { return (head, "") }
        if let length = head.headers["content-length"].flatMap({ Int($0) }) {
            return (head, String(decoding: try readExactly(length), as: UTF8.self))
        }
        var body: [UInt8] = []
        if head.headers["transfer-encoding"]?.contains("chunked") == true {
            while let chunk = try readChunk() { body += chunk }
        }
        return (head, String(decoding: body, as: UTF8.self))
    }
}

/// Reads Server-Sent Events off a chunked stream, block by block, keeping the raw text.
final class EventReader {
    struct Event: Equatable {
        var id: String?
        var event: String?
        var data: String
        var retry: Int?
    }

    let connection: RawHTTP
    private(set) var raw = ""
    private var pending = ""
    private(set) var ended = false

    init(_ connection: RawHTTP) { self.connection = connection }

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
