// NSS in worker processes (see cnss_worker.h): the worker's side (a constructor that serves
// requests instead of running the program's main when the process was started as a worker) and
// the parent's side (spawning, framing, reading answers).
#define _GNU_SOURCE
#include "cnss_worker.h"
#include "cnss_bridge.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define WORKER_ENV "CNSS_WORKER_FD"
#define WORKER_FD 3
#define MAX_FRAME (64u << 20)

enum { OP_VERIFY = 1, OP_DECODE = 2, OP_RESET = 3, OP_LOOP = 4, OP_HELLO = 5 };

// ---- buffers ---------------------------------------------------------------------------------

typedef struct { uint8_t *data; size_t length, capacity; int failed; } buffer;

static void put(buffer *b, const void *bytes, size_t n) {
    if (b->failed) return;
    if (b->length + n > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 4096;
        while (capacity < b->length + n) capacity *= 2;
        uint8_t *grown = realloc(b->data, capacity);
        if (!grown) { b->failed = 1; return; }
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
}
static void put_u32(buffer *b, uint32_t v) { put(b, &v, sizeof v); }
static void put_bytes(buffer *b, const void *bytes, size_t n) { put_u32(b, (uint32_t)n); put(b, bytes, n); }

typedef struct { const uint8_t *data; size_t length, at; int failed; } reader;

static int take(reader *r, void *out, size_t n) {
    if (r->failed || r->length - r->at < n) { r->failed = 1; return 0; }
    memcpy(out, r->data + r->at, n);
    r->at += n;
    return 1;
}
static uint32_t take_u32(reader *r) { uint32_t v = 0; take(r, &v, sizeof v); return v; }
// A length-prefixed byte string inside the frame (not copied), or NULL.
static const uint8_t *take_bytes(reader *r, uint32_t *n) {
    *n = take_u32(r);
    if (r->failed || r->length - r->at < *n) { r->failed = 1; return NULL; }
    const uint8_t *p = r->data + r->at;
    r->at += *n;
    return p;
}

// ---- framing over the socket -----------------------------------------------------------------

static int write_all(int fd, const void *bytes, size_t n) {
    const uint8_t *p = bytes;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}
static int read_all(int fd, void *bytes, size_t n) {
    uint8_t *p = bytes;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}
// One frame in one system call (sendmsg with the header and the payload).
static int send_frame(int fd, uint32_t tag, const buffer *payload) {
    if (payload->failed) return -1;
    uint32_t header[2] = { tag, (uint32_t)payload->length };
    struct iovec parts[2] = { { header, sizeof header }, { payload->data, payload->length } };
    struct msghdr message = { 0 };
    message.msg_iov = parts;
    message.msg_iovlen = payload->length ? 2 : 1;
    size_t total = sizeof header + payload->length;
    ssize_t sent;
    do { sent = sendmsg(fd, &message, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    if (sent < 0) return -1;
    if ((size_t)sent == total) return 0;
    // A partial send (a large frame): the rest plainly.
    size_t done = (size_t)sent;
    if (done < sizeof header) {
        if (write_all(fd, (uint8_t *)header + done, sizeof header - done) != 0) return -1;
        done = sizeof header;
    }
    return write_all(fd, payload->data + (done - sizeof header), total - done);
}
// Reads one frame; the payload is malloc'd (free it). 0 on success. The exchange is lockstep (one
// side waits for the other's frame), so whatever one read returns belongs to this frame: usually
// one read takes it all.
static int receive_frame(int fd, uint32_t *tag, uint8_t **payload, uint32_t *length) {
    uint8_t first[16384];
    size_t have = 0;
    while (have < 8) {
        ssize_t r = read(fd, first + have, sizeof first - have);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        have += (size_t)r;
    }
    uint32_t header[2];
    memcpy(header, first, sizeof header);
    if (header[1] > MAX_FRAME || have - 8 > header[1]) return -1;
    uint8_t *data = malloc(header[1] ? header[1] : 1);
    if (!data) return -1;
    memcpy(data, first + 8, have - 8);
    if (read_all(fd, data + (have - 8), header[1] - (have - 8)) != 0) { free(data); return -1; }
    *tag = header[0];
    *payload = data;
    *length = header[1];
    return 0;
}

// ---- the worker ------------------------------------------------------------------------------

// The names and texts of every code in `codes`, looked up in this worker's NSS.
static void put_codes(buffer *b, const int *codes, size_t count) {
    put_u32(b, (uint32_t)count);
    for (size_t i = 0; i < count; i++) {
        const char *name = cnss_error_name(codes[i]);
        const char *text = cnss_error_text(codes[i]);
        int32_t code = codes[i];
        put(b, &code, sizeof code);
        put_bytes(b, name ? name : "", name ? strlen(name) : 0);
        put_bytes(b, text ? text : "", text ? strlen(text) : 0);
    }
}

static void collect_path(void *context, const uint8_t *der, size_t length) {
    buffer *path = context;
    put_bytes(path, der, length);
}

// Reads a list of certificates into arrays (pointing into the frame). 0 on success.
static int take_certificates(reader *r, const uint8_t ***ders, size_t **lengths, size_t *count) {
    uint32_t n = take_u32(r);
    if (r->failed || n > 100000) return -1;
    *ders = calloc(n ? n : 1, sizeof **ders);
    *lengths = calloc(n ? n : 1, sizeof **lengths);
    if (!*ders || !*lengths) return -1;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len;
        (*ders)[i] = take_bytes(r, &len);
        (*lengths)[i] = len;
        if (r->failed) return -1;
    }
    *count = n;
    return 0;
}

static void serve_verify(reader *r, buffer *out, int loop) {
    int64_t time_us = 0;
    take(r, &time_us, sizeof time_us);
    uint32_t usage_any = take_u32(r);
    uint32_t host_length = take_u32(r);
    char *host = NULL;
    if (host_length != UINT32_MAX) {
        host = malloc((size_t)host_length + 1);
        if (host && take(r, host, host_length)) host[host_length] = 0;
    }
    const uint8_t **anchors = NULL, **chain = NULL, **crls = NULL;
    size_t *anchor_lengths = NULL, *chain_lengths = NULL, *crl_lengths = NULL, anchor_count = 0, chain_count = 0, crl_count = 0;
    uint64_t iterations = 0;
    int bad = take_certificates(r, &anchors, &anchor_lengths, &anchor_count) != 0
        || take_certificates(r, &chain, &chain_lengths, &chain_count) != 0
        || (host_length != UINT32_MAX && !host);
    int revocation = CNSS_REVOCATION_NONE;
    if (!loop && !bad) {
        revocation = (int)take_u32(r);
        bad = take_certificates(r, &crls, &crl_lengths, &crl_count) != 0;
    }
    if (loop) take(r, &iterations, sizeof iterations);
    if (bad || r->failed) {
        out->failed = 1;
    } else if (loop) {
        uint64_t ns = cnss_loop(anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count, host, time_us, iterations);
        put(out, &ns, sizeof ns);
    } else {
        cnss_outcome outcome;
        buffer path = { 0 };
        cnss_verify(anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count, crls, crl_lengths, crl_count, revocation, host, time_us, (int)usage_any, &outcome, collect_path, &path);
        put(out, &outcome, sizeof outcome);
        // The path: a count, then the certificates as collected.
        uint32_t path_count = 0;
        for (reader p = { path.data, path.length, 0, 0 }; p.at < p.length; path_count++) { uint32_t n; take_bytes(&p, &n); if (p.failed) break; }
        put_u32(out, path_count);
        put(out, path.data ? path.data : (const uint8_t *)"", path.length);
        if (path.failed) out->failed = 1;
        free(path.data);
        int codes[CNSS_MAX_LOG + 1];
        size_t count = 0;
        codes[count++] = outcome.error;
        for (int i = 0; i < outcome.log_count && i < CNSS_MAX_LOG; i++) codes[count++] = outcome.log_errors[i];
        put_codes(out, codes, count);
    }
    free(host);
    free(anchors); free(anchor_lengths); free(chain); free(chain_lengths); free(crls); free(crl_lengths);
}

static int serve(int fd) {
    signal(SIGPIPE, SIG_IGN);
    int error = cnss_initialize();
    buffer hello = { 0 };
    int32_t e = error;
    put(&hello, &e, sizeof e);
    put_codes(&hello, &error, 1);
    if (send_frame(fd, OP_HELLO, &hello) != 0) return 1;
    free(hello.data);
    for (;;) {
        uint32_t op, length;
        uint8_t *payload;
        if (receive_frame(fd, &op, &payload, &length) != 0) return 0;  // the parent closed: done
        reader r = { payload, length, 0, 0 };
        buffer out = { 0 };
        switch (op) {
        case OP_VERIFY: serve_verify(&r, &out, 0); break;
        case OP_LOOP: serve_verify(&r, &out, 1); break;
        case OP_DECODE: {
            uint32_t n;
            const uint8_t *der = take_bytes(&r, &n);
            int32_t result = r.failed ? -1 : cnss_decode(der, n);
            int code = result;
            put(&out, &result, sizeof result);
            put_codes(&out, &code, 1);
            break;
        }
        case OP_RESET: {
            int32_t result = cnss_reset();
            int code = result;
            put(&out, &result, sizeof result);
            put_codes(&out, &code, 1);
            break;
        }
        default:
            out.failed = 1;
        }
        free(payload);
        int sent = out.failed ? -1 : send_frame(fd, op, &out);
        free(out.data);
        if (sent != 0) return 1;
    }
}

// A process started by cnss_worker_start runs the program's own executable with CNSS_WORKER_FD
// set: this constructor serves NSS requests on that descriptor and exits, so the program's main
// never runs. Constructors of the executable run after those of every shared library (NSS, NSPR,
// libc), so NSS is ready to use here.
__attribute__((constructor)) static void cnss_worker_entry(void) {
    const char *value = getenv(WORKER_ENV);
    if (!value) return;
    int fd = atoi(value);
    unsetenv(WORKER_ENV);
    _exit(serve(fd));
}

// ---- the parent ------------------------------------------------------------------------------

static void read_codes(reader *r, cnss_error_sink sink, void *context);

struct cnss_worker {
    int fd;
    pid_t pid;
    char failure[256];
};

static void describe_end(cnss_worker *worker, const char *doing) {
    int status = 0;
    if (worker->pid > 0) {
        close(worker->fd);
        worker->fd = -1;
        if (waitpid(worker->pid, &status, 0) == worker->pid) {
            if (WIFSIGNALED(status)) {
                snprintf(worker->failure, sizeof worker->failure, "the NSS worker process %d was killed by signal %d (%s) while %s", (int)worker->pid, WTERMSIG(status), strsignal(WTERMSIG(status)), doing);
            } else {
                snprintf(worker->failure, sizeof worker->failure, "the NSS worker process %d exited with status %d while %s", (int)worker->pid, WEXITSTATUS(status), doing);
            }
        } else {
            snprintf(worker->failure, sizeof worker->failure, "the NSS worker process %d stopped answering while %s", (int)worker->pid, doing);
        }
        worker->pid = -1;
    }
}

cnss_worker *cnss_worker_start(cnss_error_sink sink, void *sink_context, int *init_error, char *message, size_t message_length) {
    *init_error = 0;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) { snprintf(message, message_length, "cannot find this program's executable (/proc/self/exe: %s)", strerror(errno)); return NULL; }
    exe[n] = 0;
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) { snprintf(message, message_length, "socketpair: %s", strerror(errno)); return NULL; }
    // The child's end becomes descriptor 3 (dup2 clears close-on-exec; if it already is 3, a copy
    // is made first so that dup2 has something to do).
    int child_end = fds[1];
    if (child_end == WORKER_FD) {
        child_end = fcntl(fds[1], F_DUPFD_CLOEXEC, WORKER_FD + 1);
        close(fds[1]);
        if (child_end < 0) { close(fds[0]); snprintf(message, message_length, "fcntl: %s", strerror(errno)); return NULL; }
    }
    size_t count = 0;
    while (environ[count]) count++;
    char **env = calloc(count + 2, sizeof *env);
    if (!env) { close(fds[0]); close(child_end); snprintf(message, message_length, "out of memory"); return NULL; }
    size_t k = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(environ[i], WORKER_ENV "=", sizeof WORKER_ENV) != 0) env[k++] = environ[i];
    }
    char assignment[32];
    snprintf(assignment, sizeof assignment, WORKER_ENV "=%d", WORKER_FD);
    env[k++] = assignment;
    env[k] = NULL;
    // posix_spawn rather than swift-subprocess (issue 61): the worker is started from C, on the
    // evaluating thread, synchronously (swift-subprocess's API is async only: Backends/HTTPClients'
    // README, "Workers", measures why a synchronous evaluation must not wait on it), and the child is
    // this very program re-executed with its end of the socket pair as descriptor 3, which one
    // posix_spawn_file_actions_adddup2 gives it.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, child_end, WORKER_FD);
    char *argv[] = { exe, NULL };
    pid_t pid;
    int spawned = posix_spawn(&pid, exe, &actions, NULL, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    free(env);
    close(child_end);
    if (spawned != 0) { close(fds[0]); snprintf(message, message_length, "cannot start an NSS worker process (%s: %s)", exe, strerror(spawned)); return NULL; }
    cnss_worker *worker = calloc(1, sizeof *worker);
    if (!worker) { close(fds[0]); kill(pid, SIGKILL); waitpid(pid, NULL, 0); snprintf(message, message_length, "out of memory"); return NULL; }
    worker->fd = fds[0];
    worker->pid = pid;
    uint32_t tag, length;
    uint8_t *payload;
    if (receive_frame(worker->fd, &tag, &payload, &length) != 0 || tag != OP_HELLO) {
        describe_end(worker, "starting");
        snprintf(message, message_length, "%s (no greeting from %s)", worker->failure, exe);
        free(worker);
        return NULL;
    }
    reader r = { payload, length, 0, 0 };
    int32_t error = 0;
    take(&r, &error, sizeof error);
    read_codes(&r, sink, sink_context);
    free(payload);
    *init_error = error;
    return worker;
}

void cnss_worker_stop(cnss_worker *worker) {
    if (!worker) return;
    if (worker->fd >= 0) close(worker->fd);
    if (worker->pid > 0) waitpid(worker->pid, NULL, 0);
    free(worker);
}

const char *cnss_worker_failure(const cnss_worker *worker) { return worker->failure; }

int cnss_worker_pid(const cnss_worker *worker) { return (int)worker->pid; }

static void put_certificates(buffer *b, const uint8_t *const *ders, const size_t *lengths, size_t count) {
    put_u32(b, (uint32_t)count);
    for (size_t i = 0; i < count; i++) put_bytes(b, ders[i], lengths[i]);
}

// Sends one request (and frees it) and reads its answer into a reader; 0 on success (free the
// reader's data), else the worker is gone and its failure says why.
static int exchange(cnss_worker *worker, uint32_t op, buffer *request, reader *answer, const char *doing) {
    uint32_t tag, length;
    uint8_t *payload = NULL;
    if (worker->pid <= 0) { free(request->data); return -1; }
    // A worker that ended before this request (killed between requests) has closed its end: the
    // send fails (EPIPE), and the request never reached it.
    if (send_frame(worker->fd, op, request) != 0) {
        free(request->data);
        describe_end(worker, "waiting for a request");
        return -2;
    }
    free(request->data);
    if (receive_frame(worker->fd, &tag, &payload, &length) != 0 || tag != op) {
        free(payload);
        describe_end(worker, doing);
        return -1;
    }
    *answer = (reader){ payload, length, 0, 0 };
    return 0;
}

static void read_codes(reader *r, cnss_error_sink sink, void *context) {
    uint32_t codes = take_u32(r);
    for (uint32_t i = 0; i < codes && !r->failed; i++) {
        int32_t code = 0; uint32_t nl, tl;
        take(r, &code, sizeof code);
        const uint8_t *name = take_bytes(r, &nl);
        const uint8_t *text = take_bytes(r, &tl);
        if (!r->failed && sink) sink(context, code, (const char *)name, nl, (const char *)text, tl);
    }
}

static void put_request(buffer *b, const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                        const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                        const char *host, int64_t time_us, int usage_any) {
    put(b, &time_us, sizeof time_us);
    put_u32(b, (uint32_t)usage_any);
    if (host) put_bytes(b, host, strlen(host)); else put_u32(b, UINT32_MAX);
    put_certificates(b, anchors, anchor_lengths, anchor_count);
    put_certificates(b, chain, chain_lengths, chain_count);
}

int cnss_worker_verify(cnss_worker *worker,
                       const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int revocation,
                       const char *host, int64_t time_us, int usage_any,
                       cnss_outcome *outcome, cnss_path_sink path_sink, void *path_context,
                       cnss_error_sink error_sink, void *error_context) {
    buffer request = { 0 };
    put_request(&request, anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count, host, time_us, usage_any);
    put_u32(&request, (uint32_t)revocation);
    put_certificates(&request, crls, crl_lengths, crl_count);
    reader r;
    int status = exchange(worker, OP_VERIFY, &request, &r, "verifying a chain");
    if (status != 0) return status;
    take(&r, outcome, sizeof *outcome);
    uint32_t path_count = take_u32(&r);
    for (uint32_t i = 0; i < path_count && !r.failed; i++) {
        uint32_t n;
        const uint8_t *der = take_bytes(&r, &n);
        if (!r.failed && path_sink) path_sink(path_context, der, n);
    }
    read_codes(&r, error_sink, error_context);
    int failed = r.failed;
    free((void *)r.data);
    if (failed) {
        snprintf(worker->failure, sizeof worker->failure, "the NSS worker process %d sent an answer that does not parse", (int)worker->pid);
        return -1;
    }
    return 0;
}

// A request answered by one error code (0 for success) and its name.
static int exchange_status(cnss_worker *worker, uint32_t op, buffer *request, const char *doing, int *error, cnss_error_sink sink, void *context) {
    reader r;
    int status = exchange(worker, op, request, &r, doing);
    if (status != 0) return status;
    int32_t e = -1;
    take(&r, &e, sizeof e);
    read_codes(&r, sink, context);
    *error = e;
    free((void *)r.data);
    return r.failed ? -1 : 0;
}

int cnss_worker_decode(cnss_worker *worker, const uint8_t *der, size_t length, int *error, cnss_error_sink sink, void *context) {
    buffer request = { 0 };
    put_bytes(&request, der, length);
    return exchange_status(worker, OP_DECODE, &request, "decoding an anchor", error, sink, context);
}

int cnss_worker_reset(cnss_worker *worker, int *error, cnss_error_sink sink, void *context) {
    buffer request = { 0 };
    return exchange_status(worker, OP_RESET, &request, "resetting NSS", error, sink, context);
}

int cnss_worker_loop(cnss_worker *worker,
                     const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const char *host, int64_t time_us, uint64_t iterations, uint64_t *nanoseconds) {
    buffer request = { 0 };
    put_request(&request, anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count, host, time_us, 0);
    put(&request, &iterations, sizeof iterations);
    reader r;
    int status = exchange(worker, OP_LOOP, &request, &r, "running NSS's own loop");
    if (status != 0) return status;
    uint64_t ns = 0;
    take(&r, &ns, sizeof ns);
    free((void *)r.data);
    *nanoseconds = ns;
    return r.failed ? -1 : 0;
}
