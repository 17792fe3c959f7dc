#if canImport(Glibc)
import Glibc
#endif

/// Serves the files under one root folder (the web app, `/usr/share/javascript/leaflet`).
///
/// Mount it on a wildcard route; the wildcard's decoded segments name the file:
/// ```swift
/// let leaflet = StaticFiles(root: "/usr/share/javascript/leaflet")!
/// router.get("/leaflet/*", leaflet.handler)
/// ```
/// Containment is checked on the file actually opened, not on the name: the name's segments
/// may not be empty, `.`, `..` or hidden (`.git`) and may not contain `/`, `\` or NUL (so `%2e%2e`
/// and `%2f` are rejected after decoding), and the opened descriptor's real path (via
/// `/proc/self/fd`) must lie under the root's real path, so a symlink leading out of the root is
/// refused even if it is swapped in concurrently. Refusals are 404 (400 for encoded separators);
/// only regular files are served (FIFOs and devices are opened non-blocking and refused).
///
/// Responses carry `Content-Type` by extension, a weak `ETag` (size + mtime), `Last-Modified`,
/// `Cache-Control` and `X-Content-Type-Options: nosniff`; `If-None-Match` / `If-Modified-Since`
/// give 304. Directories answer with their index file, redirecting `/dir` to `/dir/` first.
public struct StaticFiles: Sendable {
    /// The root's real path (symlinks resolved), without a trailing slash.
    public let root: String
    /// The `Cache-Control` value for files (and 304s).
    public var cacheControl: String
    /// The file served for a directory, or nil to answer 404 for directories.
    public var indexFile: String?
    /// Files up to this size are read into memory (so they can be gzip-compressed); larger ones
    /// are sent from the descriptor with `sendfile`.
    public var inMemoryLimitBytes: Int

    /// Returns nil when `root` does not exist or is not a directory.
    public init?(root: String, cacheControl: String = "public, max-age=3600", indexFile: String? = "index.html",
                 inMemoryLimitBytes: Int = 1 << 20) {
        guard let real = realpath(root, nil) else { return nil }
        defer { free(real) }
        var info = stat()
        guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return nil }
        var path = String(cString: real)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.root = path
        self.cacheControl = cacheControl
        self.indexFile = indexFile
        self.inMemoryLimitBytes = inMemoryLimitBytes
    }

    /// Serves `request.wildcardSegments` (set by `Router` for a `…/*` route).
    public var handler: HTTPHandler {
        let files = self
        return { files.respond(to: $0, segments: $0.wildcardSegments) }
    }

    /// Serves the file named by decoded path `segments` relative to the root. A trailing empty
    /// segment (a path ending in `/`) asks for the directory's index.
    public func respond(to request: HTTPRequest, segments: [String]) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return HTTPError(.methodNotAllowed, headers: ["Allow": "GET, HEAD"]).response(for: request)
        }
        var names = segments
        let wantsDirectory = names.last == "" || names.isEmpty
        if names.last == "" { names.removeLast() }
        for name in names {
            if name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
                return HTTPError(.badRequest, "path segment contains a separator").response(for: request)
            }
            if name.isEmpty || name.hasPrefix(".") { return notFound(request) }
        }
        let path = names.isEmpty ? root : root + "/" + names.joined(separator: "/")
        guard var file = openContained(path) else { return notFound(request) }
        if file.isDirectory {
            close(file.descriptor)
            guard wantsDirectory else {
                var location = request.path + "/"
                if let q = request.target.firstIndex(of: "?") { location += request.target[q...] }
                return .redirect(to: location, status: .movedPermanently)
            }
            guard let indexFile, let index = openContained(path + "/" + indexFile), !index.isDirectory else {
                return notFound(request)
            }
            file = index
            names.append(indexFile)
        } else if wantsDirectory && !names.isEmpty {
            close(file.descriptor)
            return notFound(request)
        }
        return respond(to: request, file: file, name: names.last ?? "")
    }

    private func respond(to request: HTTPRequest, file: OpenFile, name: String) -> HTTPResponse {
        let etag = "W/\"\(String(file.size, radix: 16))-\(String(file.modifiedSeconds, radix: 16))-\(String(file.modifiedNanoseconds, radix: 16))\""
        var headers: HTTPHeaders = [
            "ETag": etag,
            "Last-Modified": HTTPDate.format(secondsSince1970: file.modifiedSeconds),
            "Cache-Control": cacheControl,
        ]
        if isNotModified(request, etag: etag, modifiedSeconds: file.modifiedSeconds) {
            close(file.descriptor)
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", MediaType.forFileName(name))
        headers.add("X-Content-Type-Options", "nosniff")
        if file.size > inMemoryLimitBytes {
            return HTTPResponse(status: .ok, headers: headers,
                                body: .file(FileBody(takingOwnershipOf: file.descriptor, sizeBytes: UInt64(file.size))))
        }
        defer { close(file.descriptor) }
        guard let bytes = readAll(file.descriptor, size: file.size) else {
            return HTTPError(.internalServerError).response(for: request)
        }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(bytes))
    }

    private func isNotModified(_ request: HTTPRequest, etag: String, modifiedSeconds: Int) -> Bool {
        if let match = request.headers["if-none-match"] {
            let opaque = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
            let mine = opaque(Substring(etag))
            return match.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingASCIIWhitespace()
                return tag == "*" || opaque(tag) == mine
            }
        }
        if let since = request.headers["if-modified-since"].flatMap(HTTPDate.parse) {
            return modifiedSeconds <= since
        }
        return false
    }

    private func notFound(_ request: HTTPRequest) -> HTTPResponse { HTTPError(.notFound).response(for: request) }

    // MARK: File system

    struct OpenFile {
        var descriptor: Int32
        var isDirectory: Bool
        var size: Int
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int
    }

    /// Opens `path` if what it resolves to is a directory or regular file inside the root.
    private func openContained(_ path: String) -> OpenFile? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        guard let real = Self.realPath(of: fd), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            close(fd)
            return nil
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { close(fd); return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else { close(fd); return nil }
        return OpenFile(descriptor: fd, isDirectory: type == S_IFDIR, size: Int(info.st_size),
                        modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The path the kernel has for an open descriptor; nil if `/proc` cannot tell (fail closed).
    static func realPath(of fd: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard n > 0, n < buffer.count - 1 else { return nil }
        let path = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? nil : path
    }

    private func readAll(_ fd: Int32, size: Int) -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let n = pread(fd, buffer.baseAddress! + count, size - count, off_t(count))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                count += n
            }
            failed = count != size
        }
        return failed ? nil : bytes
    }
}
