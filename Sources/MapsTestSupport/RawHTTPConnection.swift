import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking loopback TCP client for tests that need to see the wire: keep-alive reuse,
/// chunked streams (Server-Sent Events), slow or vanishing clients. Every read has a timeout, so no test can hang.
public final class RawHTTPConnection {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public struct Response {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
        public func header(_ name: String) -> String? {
            headers.first { $0.0 == name.lowercased() }?.1
        }
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads give up after `timeoutSeconds`.
    public init(port: UInt16, timeoutSeconds: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - Double(Int(timeoutSeconds))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard ok == 0 else {
            let e = errno
            Glibc.close(fd)
            throw Failure(description: "connect failed: errno \(e)")
        }
    }

    deinit { Glibc.close(fd) }

    /// Closes both directions now (the peer sees EOF/RST).
    public func closeNow() { shutdown(fd, Int32(SHUT_RDWR)) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            sent += n
        }
    }

    /// Sends a request with the given head lines and body.
    public func request(_ method: String, _ target: String, headers: [String] = [], body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for h in headers { head += h + "\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
    }

    /// Reads more bytes; returns false on EOF. Throws on timeout or error.
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

    public func readLine() throws -> String {
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

    public func readExactly(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { throw Failure(description: "connection closed mid-body") }
        }
        let out = Array(buffer[..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Reads the status line and headers.
    public func readHead() throws -> Response {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw Failure(description: "bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        while true {
            let line = try readLine()
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Response(status: status, headers: headers, body: [])
    }

    /// Reads one chunk of a chunked body; nil at the terminating zero-size chunk.
    public func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16) else {
            throw Failure(description: "bad chunk size: \(sizeLine)")
        }
        if size == 0 {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readExactly(size)
        _ = try readLine()
        return data
    }

    /// Reads a whole response (Content-Length, chunked, or until close).
    public func readResponse(method: String = "GET") throws -> Response {
        var response = try readHead()
        if method == "HEAD" || response.status == 204 || response.status == 304 || response.status < 200 { return response }
        if let length = response.header("content-length").flatMap({ Int($0) }) {
            response.body = try readExactly(length)
        } else if response.header("transfer-encoding")?.lowercased().contains("chunked") == true {
            while let chunk = try readChunk() { response.body += chunk }
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// Whether the peer closes the connection within the socket timeout (reads until EOF,
    /// discarding data); false on timeout.
    public func waitForClose() -> Bool {
        buffer = []
        while true {
            do { if try !fill() { return true } } catch { return false }
        }
    }
}
