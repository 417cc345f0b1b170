#include "microhttpd_shim.h"
#include <microhttpd.h>
#include <isa-l/igzip_lib.h>
#include <arpa/inet.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/// One open connection as the request deadline sees it. libmicrohttpd's own timeout counts idle time only, so a
/// client sending a byte a second (or a body announced and never finished) would hold a connection forever; the
/// reaper thread gives each request `timeout` seconds from its first byte to its last response byte, the handler's
/// own time excepted.
typedef struct tracked_connection {
    struct tracked_connection *previous, *next;
    int fd;
    uint64_t idle_bytes;   ///< bytes the socket had received when its last request completed
    double busy_since;     ///< when bytes of a new request were first seen (0: idle, libmicrohttpd's timeout applies)
    int in_handler;
    int reaped;
} tracked_connection;

struct ngh_daemon {
    struct MHD_Daemon *mhd;
    ngh_handler handler;
    void *context;
    size_t max_body;
    int listen_fd;
    volatile unsigned active;
    unsigned timeout_seconds;
    pthread_mutex_t lock;          ///< guards the list and every entry's fields; held while the reaper shuts a socket
    tracked_connection *connections;
    pthread_t reaper;
    int reaper_running;
    int stopping;  // read and written with __atomic builtins (the reaper thread polls it)
};

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/// Bytes the kernel has received on a TCP socket (0 when unknown).
static uint64_t bytes_received(int fd) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return 0;
    return length >= offsetof(struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received ? info.tcpi_bytes_received : 0;
}

static tracked_connection *tracked(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

static void notify_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    ngh_daemon *daemon = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        tracked_connection *entry = info ? calloc(1, sizeof *entry) : NULL;
        if (!entry) return;
        entry->fd = info->connect_fd;
        pthread_mutex_lock(&daemon->lock);
        entry->next = daemon->connections;
        if (entry->next) entry->next->previous = entry;
        daemon->connections = entry;
        pthread_mutex_unlock(&daemon->lock);
        *socket_context = entry;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
        // libmicrohttpd closes the socket only after this returns, so the reaper never shuts a reused number.
        tracked_connection *entry = *socket_context;
        pthread_mutex_lock(&daemon->lock);
        if (entry->previous) entry->previous->next = entry->next; else daemon->connections = entry->next;
        if (entry->next) entry->next->previous = entry->previous;
        pthread_mutex_unlock(&daemon->lock);
        free(entry);
        *socket_context = NULL;
    }
}

/// Every 200 ms: marks connections whose socket received bytes since their last request completed as busy, and
/// shuts down (both directions) those busy for longer than the timeout; libmicrohttpd then sees the end of the
/// stream and closes the connection in its own thread.
static void *reap(void *argument) {
    ngh_daemon *daemon = argument;
    while (!__atomic_load_n(&daemon->stopping, __ATOMIC_ACQUIRE)) {
        usleep(200000);
        double now = now_seconds();
        pthread_mutex_lock(&daemon->lock);
        for (tracked_connection *entry = daemon->connections; entry; entry = entry->next) {
            if (entry->in_handler || entry->reaped) continue;
            if (entry->busy_since == 0) {
                if (bytes_received(entry->fd) > entry->idle_bytes) entry->busy_since = now;
            } else if (now - entry->busy_since > daemon->timeout_seconds) {
                shutdown(entry->fd, SHUT_RDWR);
                entry->reaped = 1;
            }
        }
        pthread_mutex_unlock(&daemon->lock);
    }
    return NULL;
}

/// Per-request state: the raw target from the URI log callback and the body read so far.
typedef struct {
    char *target;
    char *body;
    size_t length, capacity;
    int too_big;
    int started;
} request_state;

static void *log_uri(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)cls; (void)connection;
    request_state *state = calloc(1, sizeof *state);
    if (state && uri) state->target = strdup(uri);
    return state;
}

static void completed(void *cls, struct MHD_Connection *connection, void **req_cls, enum MHD_RequestTerminationCode code) {
    (void)code;
    ngh_daemon *daemon = cls;
    tracked_connection *entry = tracked(connection);
    if (entry) {
        pthread_mutex_lock(&daemon->lock);
        entry->idle_bytes = bytes_received(entry->fd);
        entry->busy_since = 0;
        pthread_mutex_unlock(&daemon->lock);
    }
    request_state *state = *req_cls;
    if (!state) return;
    free(state->target);
    free(state->body);
    free(state);
    *req_cls = NULL;
}

/// Bodies below this many bytes are sent as they are: compressing them saves too little.
#define NGH_GZIP_MINIMUM 1024

/// Whether an Accept-Encoding value admits gzip: a `gzip` or `x-gzip` coding (any case) whose `q` is not 0.
int ngh_accepts_gzip(const char *value) {
    if (!value) return 0;
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',') p++;
        const char *name = p;
        while (*p && *p != ',' && *p != ';' && *p != ' ' && *p != '\t') p++;
        size_t length = (size_t)(p - name);
        int gzip = (length == 4 && strncasecmp(name, "gzip", 4) == 0) || (length == 6 && strncasecmp(name, "x-gzip", 6) == 0);
        double q = 1;
        while (*p && *p != ',') {  // parameters: only q matters
            if (*p == ';') {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                if ((p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
                    char *end = NULL;
                    q = strtod(p + 2, &end);
                    if (end == p + 2) q = 1;  // no number: the coding's default weight
                    p = end;
                    continue;
                }
            }
            p++;
        }
        if (gzip && q > 0) return 1;
    }
    return 0;
}

/// `length` bytes gzip-compressed by ISA-L (level 1, one shot) into a new malloc'd buffer, or NULL when the result
/// would not be smaller (or compression fails).
char *ngh_gzip(const char *body, size_t length, size_t *compressed_length) {
    if (!body || length == 0 || length > UINT32_MAX) return NULL;
    uint8_t *out = malloc(length);
    if (!out) return NULL;
    struct isal_zstream stream;
    isal_deflate_stateless_init(&stream);
    stream.level = 1;
    stream.gzip_flag = IGZIP_GZIP;
    stream.end_of_stream = 1;
    stream.flush = NO_FLUSH;
    stream.next_in = (uint8_t *)body;
    stream.avail_in = (uint32_t)length;
    stream.next_out = out;
    stream.avail_out = (uint32_t)length;
    if (isal_deflate_stateless(&stream) != COMP_OK || stream.total_out >= length) {
        free(out);
        return NULL;
    }
    *compressed_length = stream.total_out;
    return (char *)out;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls) {
    (void)version;
    ngh_daemon *daemon = cls;
    request_state *state = *req_cls;
    if (!state) {
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        *req_cls = state;
    }
    if (!state->started) {
        state->started = 1;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t chunk = *upload_data_size;
        if (!state->too_big) {
            if (state->length + chunk > daemon->max_body) {
                state->too_big = 1;
                free(state->body);
                state->body = NULL;
                state->length = state->capacity = 0;
            } else {
                if (state->length + chunk + 1 > state->capacity) {
                    size_t capacity = state->capacity ? state->capacity : 4096;
                    while (capacity < state->length + chunk + 1) capacity *= 2;
                    char *grown = realloc(state->body, capacity);
                    if (!grown) return MHD_NO;
                    state->body = grown;
                    state->capacity = capacity;
                }
                memcpy(state->body + state->length, upload_data, chunk);
                state->length += chunk;
                state->body[state->length] = 0;
            }
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    __atomic_add_fetch(&daemon->active, 1, __ATOMIC_SEQ_CST);
    ngh_request request = {
        .method = method,
        .target = state->target ? state->target : url,
        .body = state->body ? state->body : "",
        .body_length = state->length,
        .body_too_big = state->too_big,
    };
    ngh_response response = {500, "text/plain", NULL, 0, NULL, NULL};
    tracked_connection *entry = tracked(connection);
    if (entry) {
        pthread_mutex_lock(&daemon->lock);
        entry->in_handler = 1;
        pthread_mutex_unlock(&daemon->lock);
    }
    daemon->handler(daemon->context, &request, &response);
    if (entry) {  // sending the response gets a whole timeout of its own
        pthread_mutex_lock(&daemon->lock);
        entry->in_handler = 0;
        entry->busy_since = now_seconds();
        pthread_mutex_unlock(&daemon->lock);
    }
    // Compressed when the client asks for gzip (the navigation SDKs' HTTP stacks always do) and it pays.
    int compressible = response.body && response.body_length >= NGH_GZIP_MINIMUM;
    int compressed = 0;
    if (compressible && ngh_accepts_gzip(MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING))) {
        size_t length = 0;
        char *packed = ngh_gzip(response.body, response.body_length, &length);
        if (packed) {
            if (response.release) response.release(response.owner); else free(response.body);
            response.body = packed;
            response.body_length = length;
            response.release = NULL;
            response.owner = NULL;
            compressed = 1;
        }
    }
    struct MHD_Response *reply;
    if (response.body && response.release) {
        reply = MHD_create_response_from_buffer_with_free_callback_cls(response.body_length, response.body, response.release,
                                                                        response.owner);
    } else if (response.body) {
        reply = MHD_create_response_from_buffer(response.body_length, response.body, MHD_RESPMEM_MUST_FREE);
    } else {
        reply = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    }
    enum MHD_Result result = MHD_NO;
    if (reply) {
        MHD_add_response_header(reply, "Content-Type", response.content_type ? response.content_type : "text/plain");
        MHD_add_response_header(reply, "Access-Control-Allow-Origin", "*");
        if (compressible) MHD_add_response_header(reply, MHD_HTTP_HEADER_VARY, MHD_HTTP_HEADER_ACCEPT_ENCODING);
        if (compressed) MHD_add_response_header(reply, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
        result = MHD_queue_response(connection, (unsigned)response.status, reply);
        MHD_destroy_response(reply);
    } else if (response.release) {
        response.release(response.owner);
    } else {
        free(response.body);
    }
    __atomic_sub_fetch(&daemon->active, 1, __ATOMIC_SEQ_CST);
    return result;
}

ngh_daemon *ngh_start(const char *host, uint16_t port, unsigned threads, size_t connection_memory_limit,
                      unsigned connection_timeout_seconds, unsigned connection_limit, size_t max_body,
                      ngh_handler handler, void *context, char *error, size_t error_length) {
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        snprintf(error, error_length, "'%s' is not an IPv4 address", host);
        return NULL;
    }
    ngh_daemon *daemon = calloc(1, sizeof *daemon);
    if (!daemon) {
        snprintf(error, error_length, "out of memory");
        return NULL;
    }
    daemon->handler = handler;
    daemon->context = context;
    daemon->max_body = max_body;
    daemon->listen_fd = -1;
    daemon->timeout_seconds = connection_timeout_seconds;
    pthread_mutex_init(&daemon->lock, NULL);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC;
    daemon->mhd = MHD_start_daemon(flags, port, NULL, NULL, answer, daemon,
                                   MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                   MHD_OPTION_THREAD_POOL_SIZE, threads < 1 ? 1u : threads,
                                   MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                                   MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                                   MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                   MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
                                   MHD_OPTION_URI_LOG_CALLBACK, log_uri, NULL,
                                   MHD_OPTION_NOTIFY_COMPLETED, completed, daemon,
                                   MHD_OPTION_NOTIFY_CONNECTION, notify_connection, daemon,
                                   MHD_OPTION_END);
    if (!daemon->mhd) {
        snprintf(error, error_length, "cannot listen on %s:%u (address in use, or no permission)", host, port);
        pthread_mutex_destroy(&daemon->lock);
        free(daemon);
        return NULL;
    }
    if (connection_timeout_seconds > 0) daemon->reaper_running = pthread_create(&daemon->reaper, NULL, reap, daemon) == 0;
    return daemon;
}

uint16_t ngh_port(ngh_daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon->mhd, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// Stops accepting connections. libmicrohttpd hands the listening socket back, but with worker threads it must stay
/// open until MHD_stop_daemon has returned (a worker may still use it): ngh_stop closes it. Closing it here let its
/// number be reused, by a file another thread opened, while a worker could still act on it.
void ngh_quiesce(ngh_daemon *daemon) {
    MHD_socket fd = MHD_quiesce_daemon(daemon->mhd);
    if (fd != MHD_INVALID_SOCKET) daemon->listen_fd = fd;
}

unsigned ngh_active(ngh_daemon *daemon) {
    return __atomic_load_n(&daemon->active, __ATOMIC_SEQ_CST);
}

void ngh_stop(ngh_daemon *daemon) {
    __atomic_store_n(&daemon->stopping, 1, __ATOMIC_RELEASE);
    if (daemon->reaper_running) pthread_join(daemon->reaper, NULL);
    MHD_stop_daemon(daemon->mhd);
    pthread_mutex_destroy(&daemon->lock);
    if (daemon->listen_fd >= 0) close(daemon->listen_fd);
    free(daemon);
}
