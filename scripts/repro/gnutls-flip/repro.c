/*
 * Plain-C reproduction harness for issue 23: does GnuTLS give one request the same verdict when many
 * threads verify at once, sharing the certificate and trust-list objects (as TrustHarness's GnuTLS
 * back end does) or each with objects of its own?
 *
 *   repro [--fresh] [--threads N] [--iterations N] TIME HOST ANCHOR.pem CHAIN.pem...
 *
 * Verifies CHAIN (leaf first) against a trust list of ANCHOR with gnutls_x509_trust_list_verify_crt2,
 * for TLS server authentication and HOST, at unix TIME (through gnutls_global_set_time_function with a
 * per-thread time, as the back end does), ITERATIONS times on each of N threads. By default every
 * thread shares one trust list and one set of imported certificates; with --fresh each iteration
 * imports the chain and makes the trust list anew. Prints each distinct (return value, status) pair
 * with its count and exits 1 when there is more than one: a verdict that flips.
 */
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CERTS 16
#define MAX_OUTCOMES 64

static __thread time_t thread_time; /* 0: no scope, real time */
static time_t hook(time_t *t) {
    time_t now = thread_time ? thread_time : time(NULL);
    if (t) *t = now;
    return now;
}

static gnutls_datum_t anchor_pem, chain_pem[MAX_CERTS];
static unsigned chain_count, threads = 8, iterations = 20000;
static int fresh;
static time_t at;
static const char *host;

struct outcome { int result; unsigned status; unsigned long count; };
static struct outcome outcomes[MAX_OUTCOMES];
static unsigned outcome_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void record(int result, unsigned status) {
    pthread_mutex_lock(&lock);
    unsigned i;
    for (i = 0; i < outcome_count; i++)
        if (outcomes[i].result == result && outcomes[i].status == status) break;
    if (i == outcome_count && outcome_count < MAX_OUTCOMES) {
        outcomes[i].result = result; outcomes[i].status = status; outcomes[i].count = 0; outcome_count++;
    }
    if (i < MAX_OUTCOMES) outcomes[i].count++;
    pthread_mutex_unlock(&lock);
}

static gnutls_x509_crt_t import(const gnutls_datum_t *pem) {
    gnutls_x509_crt_t crt;
    if (gnutls_x509_crt_init(&crt) < 0 || gnutls_x509_crt_import(crt, pem, GNUTLS_X509_FMT_PEM) < 0) {
        fprintf(stderr, "repro: cannot import a certificate\n");
        exit(2);
    }
    return crt;
}

struct objects { gnutls_x509_trust_list_t list; gnutls_x509_crt_t anchor; gnutls_x509_crt_t chain[MAX_CERTS]; };

static void make(struct objects *o) {
    o->anchor = import(&anchor_pem);
    for (unsigned i = 0; i < chain_count; i++) o->chain[i] = import(&chain_pem[i]);
    if (gnutls_x509_trust_list_init(&o->list, 0) < 0 || gnutls_x509_trust_list_add_cas(o->list, &o->anchor, 1, 0) != 1) {
        fprintf(stderr, "repro: cannot make the trust list\n");
        exit(2);
    }
}

static void destroy(struct objects *o) {
    gnutls_x509_trust_list_deinit(o->list, 0);
    gnutls_x509_crt_deinit(o->anchor);
    for (unsigned i = 0; i < chain_count; i++) gnutls_x509_crt_deinit(o->chain[i]);
}

static void verify(struct objects *o) {
    gnutls_typed_vdata_st data[2] = {
        { .type = GNUTLS_DT_DNS_HOSTNAME, .data = (unsigned char *)host, .size = 0 },
        { .type = GNUTLS_DT_KEY_PURPOSE_OID, .data = (unsigned char *)GNUTLS_KP_TLS_WWW_SERVER, .size = 0 },
    };
    unsigned status = 0;
    thread_time = at;
    int result = gnutls_x509_trust_list_verify_crt2(o->list, o->chain, chain_count, data, 2,
        GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN, &status, NULL);
    thread_time = 0;
    record(result, status);
}

static struct objects shared;

static void *worker(void *unused) {
    (void)unused;
    for (unsigned i = 0; i < iterations; i++) {
        if (fresh) {
            struct objects own;
            make(&own);
            verify(&own);
            destroy(&own);
        } else {
            verify(&shared);
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    int a = 1;
    for (; a < argc && strncmp(argv[a], "--", 2) == 0; a++) {
        if (strcmp(argv[a], "--fresh") == 0) fresh = 1;
        else if (strcmp(argv[a], "--threads") == 0 && a + 1 < argc) threads = (unsigned)atoi(argv[++a]);
        else if (strcmp(argv[a], "--iterations") == 0 && a + 1 < argc) iterations = (unsigned)atoi(argv[++a]);
        else { fprintf(stderr, "repro: unknown option %s\n", argv[a]); return 2; }
    }
    if (argc - a < 4 || threads == 0 || threads > 256) {
        fprintf(stderr, "usage: repro [--fresh] [--threads N] [--iterations N] TIME HOST ANCHOR.pem CHAIN.pem...\n");
        return 2;
    }
    at = (time_t)strtoll(argv[a++], NULL, 10);
    host = argv[a++];
    if (gnutls_load_file(argv[a++], &anchor_pem) < 0) { fprintf(stderr, "repro: cannot read the anchor\n"); return 2; }
    for (; a < argc && chain_count < MAX_CERTS; a++)
        if (gnutls_load_file(argv[a], &chain_pem[chain_count++]) < 0) { fprintf(stderr, "repro: cannot read %s\n", argv[a]); return 2; }
    gnutls_global_set_time_function(hook);
    if (!fresh) make(&shared);

    pthread_t ids[256];
    for (unsigned t = 0; t < threads; t++) pthread_create(&ids[t], NULL, worker, NULL);
    for (unsigned t = 0; t < threads; t++) pthread_join(ids[t], NULL);

    printf("GnuTLS %s, %s objects, %u threads x %u verifications\n", gnutls_check_version(NULL),
           fresh ? "fresh" : "shared", threads, iterations);
    for (unsigned i = 0; i < outcome_count; i++) {
        gnutls_datum_t text = { NULL, 0 };
        gnutls_certificate_verification_status_print(outcomes[i].status, GNUTLS_CRT_X509, &text, 0);
        printf("  %lu x  return %d  status 0x%x  %s\n", outcomes[i].count, outcomes[i].result, outcomes[i].status,
               text.data ? (char *)text.data : "");
        gnutls_free(text.data);
    }
    if (!fresh) destroy(&shared);
    return outcome_count == 1 ? 0 : 1;
}
