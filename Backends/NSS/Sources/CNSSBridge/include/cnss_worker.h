// NSS in worker processes. NSS's certificate store, libpkix's caches and NSPR's per-process tables
// belong to the process; a worker process is the one boundary that keeps one request's NSS state
// from another's without NSS_Shutdown (which costs each time one of NSPR's 128 thread-private
// slots: nss_DestroyErrorStack re-arms the error stack's PR_CallOnce and PR_NewThreadPrivateIndex
// never reuses a slot, so after about a hundred resets NSS's own error stack is gone and failures
// report PR_CALL_ONCE_ERROR). A crash in NSS ends a worker, not the program.
//
// A worker is this program's own executable started again with CNSS_WORKER_FD in its environment:
// a constructor in this bridge serves requests on that descriptor and exits before main runs.
#ifndef CNSS_WORKER_H
#define CNSS_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include "cnss_bridge.h"

typedef struct cnss_worker cnss_worker;

/// Receives the name and text (not NUL-terminated; empty when no NSS error table knows the code)
/// of an error code, as the worker's NSS gives them.
typedef void (*cnss_error_sink)(void *context, int code, const char *name, size_t name_length, const char *text, size_t text_length);

/// Starts a worker with NSS initialised (NSS_NoDB_Init). NULL when it cannot be started, with the
/// reason in `message`; otherwise `init_error` is 0, or the error NSS_NoDB_Init gave (named through
/// `sink`), in which case the worker is of no use and should be stopped.
cnss_worker *cnss_worker_start(cnss_error_sink sink, void *sink_context, int *init_error, char *message, size_t message_length);
/// Ends the worker (closes its socket; it exits) and waits for it.
void cnss_worker_stop(cnss_worker *worker);
/// Why the last call failed (the worker ended or answered nonsense).
const char *cnss_worker_failure(const cnss_worker *worker);
/// The worker's process id, or -1 once it ended.
int cnss_worker_pid(const cnss_worker *worker);

/// `cnss_verify` in the worker; the codes of the outcome and its log are named through
/// `error_sink`. 0 on success; -1 when the worker ended or answered nonsense with the request, -2
/// when it had ended before the request reached it (see cnss_worker_failure). The other calls
/// answer the same way.
int cnss_worker_verify(cnss_worker *worker,
                       const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int revocation,
                       const char *host, int64_t time_us, int usage_any,
                       cnss_outcome *outcome, cnss_path_sink path_sink, void *path_context,
                       cnss_error_sink error_sink, void *error_context);
/// `cnss_decode` in the worker.
int cnss_worker_decode(cnss_worker *worker, const uint8_t *der, size_t length, int *error, cnss_error_sink sink, void *context);
/// `cnss_reset` in the worker.
int cnss_worker_reset(cnss_worker *worker, int *error, cnss_error_sink sink, void *context);
/// `cnss_loop` in the worker (its time is measured there, without the exchange).
int cnss_worker_loop(cnss_worker *worker,
                     const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const char *host, int64_t time_us, uint64_t iterations, uint64_t *nanoseconds);

#endif
