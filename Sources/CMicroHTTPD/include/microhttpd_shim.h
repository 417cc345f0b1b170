// A non-variadic wrapper over libmicrohttpd: one daemon, one request handler, whole bodies.
#ifndef NAVGRAPH_MICROHTTPD_SHIM_H
#define NAVGRAPH_MICROHTTPD_SHIM_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A complete request: method, raw request target (path and query, not decoded) and body.
typedef struct {
    const char *method;
    const char *target;
    const char *body;
    size_t body_length;
    /// 1 when the body exceeded the limit and was cut off (body then holds nothing).
    int body_too_big;
} ngh_request;

/// The handler's answer. Without `release`, `body` must come from malloc and the shim frees it; with `release`, the
/// body stays the owner's and is sent without a copy, and `release(owner)` is called once when it is no longer needed.
typedef struct {
    int status;
    const char *content_type;
    char *body;
    size_t body_length;
    void (*release)(void *owner);
    void *owner;
} ngh_response;

typedef void (*ngh_handler)(void *context, const ngh_request *request, ngh_response *response);

typedef struct ngh_daemon ngh_daemon;

/// Starts listening on host:port (port 0 picks a free one) with `threads` worker threads (epoll each).
/// Returns NULL and writes a message into `error` on failure.
ngh_daemon *ngh_start(const char *host, uint16_t port, unsigned threads, size_t connection_memory_limit,
                      unsigned connection_timeout_seconds, unsigned connection_limit, size_t max_body,
                      ngh_handler handler, void *context, char *error, size_t error_length);
/// Whether an Accept-Encoding header value admits gzip (a `gzip` or `x-gzip` coding whose q is not 0); 0 for NULL.
int ngh_accepts_gzip(const char *value);
/// `length` bytes gzip-compressed (ISA-L igzip, level 1) into a new malloc'd buffer, or NULL when that would not be
/// smaller; the caller frees it.
char *ngh_gzip(const char *body, size_t length, size_t *compressed_length);
/// The bound port.
uint16_t ngh_port(ngh_daemon *daemon);
/// Stops accepting new connections; connections already open are still served.
void ngh_quiesce(ngh_daemon *daemon);
/// Number of requests currently being handled.
unsigned ngh_active(ngh_daemon *daemon);
/// Stops the threads (finishing the requests they are handling) and frees the daemon.
void ngh_stop(ngh_daemon *daemon);

#ifdef __cplusplus
}
#endif
#endif
