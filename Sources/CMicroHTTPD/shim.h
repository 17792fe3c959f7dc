#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

// Static inline wrappers for the parts of libmicrohttpd 0.9.75 that Swift cannot call
// directly: C-variadic functions (MHD_start_daemon, MHD_get_*_info) and union results.
// Everything here is compiled by the Clang importer; no C target is needed.

/// Receives one formatted MHD error message (NUL-terminated, at most 511 bytes).
typedef void (*wf_log_sink)(void *context, const char *message);

/// Where MHD's error log goes; must outlive the daemon.
struct wf_log_target {
    wf_log_sink sink;
    void *context;
};

static void wf_mhd_logger(void *cls, const char *format, va_list arguments) {
    struct wf_log_target *target = (struct wf_log_target *)cls;
    char buffer[512];
    vsnprintf(buffer, sizeof buffer, format, arguments);
    if (target != NULL && target->sink != NULL) target->sink(target->context, buffer);
}

typedef void *(*wf_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);

/// Everything `wf_start_daemon` passes to MHD_start_daemon. Zero means "MHD default"
/// for the numeric limits.
struct wf_daemon_config {
    unsigned int flags;
    const struct sockaddr *address;          // only read during the call
    unsigned int thread_pool_size;
    size_t connection_memory_limit_bytes;
    unsigned int connection_timeout_seconds;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int listen_backlog;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_cls;
    MHD_RequestCompletedCallback completed;
    void *completed_cls;
    wf_uri_logger uri_logger;
    void *uri_logger_cls;
    struct wf_log_target *log_target;        // NULL: no MHD error log
};

static inline struct MHD_Daemon *wf_start_daemon(const struct wf_daemon_config *c) {
    struct MHD_OptionItem ops[16];
    int n = 0;
    // The external logger must come first so start-up messages go through it too.
    if (c->log_target != NULL)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&wf_mhd_logger, c->log_target };
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)c->address };
    if (c->thread_pool_size > 1)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)c->thread_pool_size, NULL };
    if (c->connection_memory_limit_bytes > 0)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)c->connection_memory_limit_bytes, NULL };
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)c->connection_timeout_seconds, NULL };
    if (c->connection_limit > 0)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)c->connection_limit, NULL };
    if (c->per_ip_connection_limit > 0)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)c->per_ip_connection_limit, NULL };
    if (c->listen_backlog > 0)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)c->listen_backlog, NULL };
    if (c->completed != NULL)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)c->completed, c->completed_cls };
    if (c->uri_logger != NULL)
        ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)c->uri_logger, c->uri_logger_cls };
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(c->flags, 0, NULL, NULL, c->access_handler, c->access_handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

/// The port the daemon is bound to (useful after binding port 0), or 0 if unknown.
static inline uint16_t wf_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/// The connection's socket, or -1.
static inline int wf_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info != NULL ? info->connect_fd : -1;
}

/// The HTTP status MHD queued on the connection (also for responses MHD generated itself), or 0.
static inline unsigned int wf_connection_status(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info != NULL ? info->http_status : 0;
}

/// Writes the client's IP address (no port) into `buffer`; returns its length, or 0 if unknown.
static inline size_t wf_client_address(struct MHD_Connection *connection, char *buffer, size_t capacity) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL || capacity == 0) return 0;
    const struct sockaddr *sa = info->client_addr;
    const char *ok = NULL;
    if (sa->sa_family == AF_INET)
        ok = inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, (socklen_t)capacity);
    else if (sa->sa_family == AF_INET6)
        ok = inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, (socklen_t)capacity);
    return ok != NULL ? strlen(buffer) : 0;
}

#include <poll.h>
#include <sys/types.h>

/// Non-blocking check whether the peer of a connected socket has gone away (hung up, reset, or
/// shut down its sending side), without consuming any data. 1 = gone, 0 = alive or unknown.
/// 0x2000 is Linux's POLLRDHUP, spelled out because it needs _GNU_SOURCE.
static inline int wf_peer_hung_up(int fd) {
    if (fd < 0) return 0;
    struct pollfd p = { fd, (short)(POLLIN | 0x2000), 0 };
    if (poll(&p, 1, 0) <= 0) return 0;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL | 0x2000)) return 1;
    if (p.revents & POLLIN) {
        char c;
        return recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
    }
    return 0;
}
