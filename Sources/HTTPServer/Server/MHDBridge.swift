import CMicroHTTPD
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every libmicrohttpd call of this module lives in this file.
///
/// Threading: libmicrohttpd runs `workerThreads` epoll loops; all callbacks of one connection run
/// on that connection's loop thread. `ServerCore` travels through the C `cls` pointers unretained
/// (the server keeps it alive until the daemon is stopped); each `RequestContext` is retained by
/// the URI-logger callback and released by the request-completed callback.
enum MHDBridge {
    /// A running daemon plus the log target it points into (freed after the daemon stops).
    struct Daemon: @unchecked Sendable {
        let pointer: OpaquePointer
        let logTarget: UnsafeMutablePointer<wf_log_target>
    }

    // MARK: Lifecycle

    static func start(_ core: ServerCore) -> Result<(Daemon, UInt16), ServerError> {
        let configuration = core.configuration
        guard let address = resolve(configuration.host, port: configuration.port) else {
            return .failure(ServerError(kind: .unresolvableHost(configuration.host)))
        }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.errorLog != nil { flags |= MHD_USE_ERROR_LOG.rawValue }
        if address.isIPv6 { flags |= configuration.host == "::" ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue }

        let coreContext = Unmanaged.passUnretained(core).toOpaque()
        let logTarget = UnsafeMutablePointer<wf_log_target>.allocate(capacity: 1)
        logTarget.initialize(to: wf_log_target(sink: { context, message in
            guard let context, let message else { return }
            let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
            var text = String(cString: message)
            while text.hasSuffix("\n") { text.removeLast() }
            core.configuration.errorLog?(text)
        }, context: coreContext))

        let daemon: OpaquePointer? = address.storage.withUnsafeBytes { raw in
            var c = wf_daemon_config()
            c.flags = flags
            c.address = raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)
            c.thread_pool_size = UInt32(clamping: configuration.workerThreads)
            c.connection_memory_limit_bytes = max(4096, configuration.connectionMemoryLimitBytes)
            c.connection_timeout_seconds = UInt32(clamping: max(0, configuration.connectionTimeoutSeconds))
            c.connection_limit = UInt32(clamping: max(1, configuration.maxConnections))
            c.per_ip_connection_limit = UInt32(clamping: max(0, configuration.maxConnectionsPerIP))
            c.access_handler = { cls, connection, _, method, _, uploadData, uploadSize, context in
                guard let cls, let connection, let method, let uploadSize, let context else { return .NO }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                return MHDBridge.access(core, connection, method, uploadData, uploadSize, context)
            }
            c.access_handler_cls = coreContext
            c.completed = { cls, connection, context, termination in
                guard let cls, let context, let pointer = context.pointee else { return }
                context.pointee = nil
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let request = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
                MHDBridge.completed(core, connection, request, ok: termination == .REQUEST_TERMINATED_COMPLETED_OK)
            }
            c.completed_cls = coreContext
            c.uri_logger = { cls, uri, _ in
                guard let cls else { return nil }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let raw = uri.map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
                core.liveContexts.add(1, ordering: .relaxed)
                return Unmanaged.passRetained(RequestContext(rawTarget: raw, start: .now)).toOpaque()
            }
            c.uri_logger_cls = coreContext
            c.log_target = configuration.errorLog != nil ? logTarget : nil
            return wf_start_daemon(&c)
        }
        guard let daemon else {
            let error = errno
            logTarget.deallocate()
            return .failure(ServerError(kind: .startFailed(host: configuration.host, port: configuration.port, errno: error)))
        }
        return .success((Daemon(pointer: daemon, logTarget: logTarget), wf_daemon_port(daemon)))
    }

    /// Stops accepting connections; returns the listen socket to close after `stop`, or -1.
    /// The socket is shut down at once, so new clients are refused rather than left waiting in
    /// the backlog (it may only be closed after MHD_stop_daemon, which is why it is returned).
    static func quiesce(_ daemon: Daemon) -> Int32 {
        let socket = MHD_quiesce_daemon(daemon.pointer)
        if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
        return socket
    }

    static func stop(_ daemon: Daemon, listenSocket: Int32) {
        MHD_stop_daemon(daemon.pointer)
        if listenSocket >= 0 { close(listenSocket) }
        daemon.logTarget.deallocate()
    }

    // MARK: Requests

    /// The access handler: called once with headers, once per body chunk, once more when the
    /// request is complete. Responding only in that last call keeps the connection alive.
    private static func access(_ core: ServerCore, _ connection: OpaquePointer, _ method: UnsafePointer<CChar>,
                               _ uploadData: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>,
                               _ context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let request: RequestContext
        if let pointer = context.pointee {
            request = Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue()
        } else {
            // Only if the URI logger did not run; keeps the invariant "every request has a context".
            request = RequestContext(rawTarget: [], start: .now)
            core.liveContexts.add(1, ordering: .relaxed)
            context.pointee = Unmanaged.passRetained(request).toOpaque()
        }
        let limits = core.configuration
        switch request.phase {
        case .headers:
            request.phase = .body
            request.counted = true
            core.inFlight.add(1, ordering: .relaxed)
            request.method = String(cString: method)
            request.headers = headers(of: connection)
            request.remoteAddress = clientAddress(of: connection)
            if request.rawTarget.count > limits.maxURLBytes {
                request.pendingError = HTTPError(.uriTooLong, "request target longer than \(limits.maxURLBytes) bytes")
            } else {
                switch RequestTarget.parse(request.rawTarget) {
                case .success(let target): request.target = target
                case .failure(let error): request.pendingError = HTTPError(.badRequest, error.description)
                }
            }
            if let length = request.headers["content-length"].flatMap({ UInt64($0) }) {
                if length > UInt64(limits.maxBodyBytes) {
                    // Answer before reading the body; libmicrohttpd then closes the connection.
                    return reject(core, connection, request,
                                  HTTPError(.payloadTooLarge, "request body larger than \(limits.maxBodyBytes) bytes"))
                }
                if request.pendingError == nil { request.body.reserveCapacity(Int(length)) }
            }
            return .YES
        case .body:
            let size = uploadSize.pointee
            if size > 0 {
                uploadSize.pointee = 0
                if request.pendingError == nil, request.body.count + size > limits.maxBodyBytes {
                    request.pendingError = HTTPError(.payloadTooLarge, "request body larger than \(limits.maxBodyBytes) bytes")
                    request.discardedBytes = request.body.count
                    request.body = []
                    // libmicrohttpd 0.9.75 refuses MHD_queue_response while a body is arriving
                    // (verified: it returns MHD_NO), so the 413 goes out once the body is in.
                }
                if request.pendingError != nil {
                    request.discardedBytes += size
                    // A client that keeps pushing far past the limit is cut off.
                    return request.discardedBytes > 2 * limits.maxBodyBytes ? .NO : .YES
                }
                if let uploadData {
                    UnsafeRawPointer(uploadData).withMemoryRebound(to: UInt8.self, capacity: size) {
                        request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                    }
                }
                return .YES
            }
            request.phase = .responded
            if let error = request.pendingError { return reject(core, connection, request, error) }
            guard let target = request.target else { return .NO }
            let httpRequest = HTTPRequest(method: HTTPMethod(request.method), target: String(decoding: request.rawTarget, as: UTF8.self),
                                          parsed: target, headers: request.headers, body: request.body,
                                          remoteAddress: request.remoteAddress)
            request.body = []
            let response = core.respond(to: httpRequest)
            return queue(core, connection, request, response)
        case .responded:
            return .NO
        }
    }

    private static func reject(_ core: ServerCore, _ connection: OpaquePointer, _ request: RequestContext,
                               _ error: HTTPError) -> MHD_Result {
        request.phase = .responded
        let httpRequest = request.target.map {
            HTTPRequest(method: HTTPMethod(request.method), target: String(decoding: request.rawTarget, as: UTF8.self),
                        parsed: $0, headers: request.headers, body: [], remoteAddress: request.remoteAddress)
        }
        var response = core.respond(to: error, request: httpRequest, acceptEncoding: request.headers["accept-encoding"])
        if error.status == .payloadTooLarge { response.headers.set("Connection", "close") }
        return queue(core, connection, request, response)
    }

    private static func completed(_ core: ServerCore, _ connection: OpaquePointer?, _ request: RequestContext, ok: Bool) {
        core.liveContexts.subtract(1, ordering: .relaxed)
        if request.counted { core.inFlight.subtract(1, ordering: .relaxed) }
        guard let log = core.configuration.accessLog else { return }
        var status = request.status ?? 0
        if status == 0, let connection { status = Int(wf_connection_status(connection)) }
        let entry = AccessLogEntry(
            method: request.method, path: request.logPath, status: status,
            bodyBytes: request.bodyBytes + (request.stream?.bytesSent ?? 0),
            duration: ContinuousClock.now - request.start, remoteAddress: request.remoteAddress, completed: ok)
        log(entry)
    }

    // MARK: Responses

    private static func queue(_ core: ServerCore, _ connection: OpaquePointer, _ request: RequestContext,
                              _ response: HTTPResponse) -> MHD_Result {
        let isHead = request.method == "HEAD"
        let status = (100...999).contains(response.status.rawValue) ? response.status.rawValue : 500
        let suppressBody = isHead || HTTPStatus(status).forbidsBody
        var created: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            let body = HTTPStatus(status).forbidsBody ? [] : bytes
            created = body.withUnsafeBytes {
                MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), .RESPMEM_MUST_COPY)
            }
            request.bodyBytes = suppressBody ? 0 : body.count
        case .file(let file):
            if HTTPStatus(status).forbidsBody {
                created = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            } else {
                let fd = dup(file.fileDescriptor)
                if fd >= 0 {
                    created = MHD_create_response_from_fd64(file.sizeBytes, fd)
                    if created == nil { close(fd) }
                }
                request.bodyBytes = suppressBody ? 0 : Int(clamping: file.sizeBytes)
            }
        case .stream(let channel):
            if suppressBody {
                channel.finish(.disconnected, abort: true)
                created = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
            } else {
                created = streamResponse(core, connection, request, channel)
            }
        }
        guard let created else { return .NO }
        defer { MHD_destroy_response(created) }
        for field in response.headers where isSendable(field) {
            _ = MHD_add_response_header(created, field.name, field.value)
        }
        if core.draining.load(ordering: .relaxed), !response.headers.listContains("Connection", token: "close") {
            _ = MHD_add_response_header(created, "Connection", "close")
        }
        request.status = status
        return MHD_queue_response(connection, UInt32(status), created)
    }

    /// Headers libmicrohttpd manages itself, and fields that could split the header block, are dropped.
    private static func isSendable(_ field: HTTPHeaders.Field) -> Bool {
        let managed = ["content-length", "transfer-encoding", "date"]
        if managed.contains(where: { HTTPHeaders.equalNames($0, field.name) }) { return false }
        if field.name.isEmpty { return false }
        let bad: (UInt8) -> Bool = { $0 == 0 || $0 == 10 || $0 == 13 }
        return !field.name.utf8.contains(where: { bad($0) || $0 == UInt8(ascii: ":") || $0 == 32 })
            && !field.value.utf8.contains(where: bad)
    }

    private static func streamResponse(_ core: ServerCore, _ connection: OpaquePointer, _ request: RequestContext,
                                       _ channel: StreamChannel) -> OpaquePointer? {
        let handle = ConnectionHandle(pointer: connection)
        let binding = StreamBinding(channel: channel, connection: handle)
        let socket = wf_connection_fd(connection)
        let retained = Unmanaged.passRetained(binding).toOpaque()
        let created = MHD_create_response_from_callback(UInt64.max, 16 * 1024, { cls, _, buffer, max in
            guard let cls, let buffer else { return -2 }
            let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeUnretainedValue()
            let outcome = binding.channel.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
                MHD_suspend_connection(binding.connection.pointer)
            }
            switch outcome {
            case .bytes(let n): binding.bytesSent += n; return n
            case .suspended: return 0
            case .end: return -1        // MHD_CONTENT_READER_END_OF_STREAM
            case .abort: return -2      // MHD_CONTENT_READER_END_WITH_ERROR
            }
        }, retained, { cls in
            guard let cls else { return }
            let binding = Unmanaged<StreamBinding>.fromOpaque(cls).takeRetainedValue()
            binding.channel.detach()
            if let core = binding.core { core.unregister(binding.channel) }
        })
        guard let created else {
            Unmanaged<StreamBinding>.fromOpaque(retained).release()
            return nil
        }
        binding.core = core
        request.stream = binding
        core.register(channel)
        channel.attach(StreamAttachment(
            resume: { MHD_resume_connection(handle.pointer) },
            peerHasHungUp: { wf_peer_hung_up(socket) != 0 },
            abortConnection: { _ = shutdown(socket, Int32(SHUT_RDWR)) }))
        return created
    }

    // MARK: Request details

    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        final class Collector { var fields: [(String, String)] = [] }
        let collector = Collector()
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
            let name = UnsafeRawBufferPointer(start: key, count: keySize)
            let text = value.map { UnsafeRawBufferPointer(start: $0, count: valueSize) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
            collector.fields.append((String(decoding: name.map(HTTPHeaders.asciiLower), as: UTF8.self),
                                     String(decoding: text, as: UTF8.self)))
            return .YES
        }, Unmanaged.passUnretained(collector).toOpaque())
        return HTTPHeaders(collector.fields)
    }

    private static func clientAddress(of connection: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = wf_client_address(connection, &buffer, buffer.count)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Addresses

    struct Address {
        var storage: [UInt8]
        var isIPv6: Bool
    }

    /// Resolves `host` (numeric first, then by name) into a sockaddr for `port`.
    static func resolve(_ host: String, port: UInt16) -> Address? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        // Prefer IPv4 for names such as "localhost" that resolve to both.
        var chosen = first
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if info.pointee.ai_family == AF_INET { chosen = info; break }
            cursor = info.pointee.ai_next
        }
        let info = chosen.pointee
        guard let addr = info.ai_addr else { return nil }
        if info.ai_family == AF_INET {
            var v4 = UnsafeRawPointer(addr).loadUnaligned(as: sockaddr_in.self)
            v4.sin_port = port.bigEndian
            return Address(storage: withUnsafeBytes(of: &v4) { Array($0) }, isIPv6: false)
        }
        if info.ai_family == AF_INET6 {
            var v6 = UnsafeRawPointer(addr).loadUnaligned(as: sockaddr_in6.self)
            v6.sin6_port = port.bigEndian
            return Address(storage: withUnsafeBytes(of: &v6) { Array($0) }, isIPv6: true)
        }
        return nil
    }
}
