#include "microhttpd_shim.h"
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ngh_daemon {
    struct MHD_Daemon *mhd;
    ngh_handler handler;
    void *context;
    size_t max_body;
    int listen_fd;
    volatile unsigned active;
};

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
    (void)cls; (void)connection; (void)code;
    request_state *state = *req_cls;
    if (!state) return;
    free(state->target);
    free(state->body);
    free(state);
    *req_cls = NULL;
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
    ngh_response response = {500, "text/plain", NULL, 0};
    daemon->handler(daemon->context, &request, &response);
    struct MHD_Response *reply;
    if (response.body) {
        reply = MHD_create_response_from_buffer(response.body_length, response.body, MHD_RESPMEM_MUST_FREE);
    } else {
        reply = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    }
    enum MHD_Result result = MHD_NO;
    if (reply) {
        MHD_add_response_header(reply, "Content-Type", response.content_type ? response.content_type : "text/plain");
        MHD_add_response_header(reply, "Access-Control-Allow-Origin", "*");
        result = MHD_queue_response(connection, (unsigned)response.status, reply);
        MHD_destroy_response(reply);
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
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC;
    daemon->mhd = MHD_start_daemon(flags, port, NULL, NULL, answer, daemon,
                                   MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
                                   MHD_OPTION_THREAD_POOL_SIZE, threads < 1 ? 1u : threads,
                                   MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                                   MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
                                   MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                                   MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
                                   MHD_OPTION_URI_LOG_CALLBACK, log_uri, NULL,
                                   MHD_OPTION_NOTIFY_COMPLETED, completed, NULL,
                                   MHD_OPTION_END);
    if (!daemon->mhd) {
        snprintf(error, error_length, "cannot listen on %s:%u (address in use, or no permission)", host, port);
        free(daemon);
        return NULL;
    }
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
    MHD_stop_daemon(daemon->mhd);
    if (daemon->listen_fd >= 0) close(daemon->listen_fd);
    free(daemon);
}
