/*
 * OpenSSL baselines: what OpenSSLBackend asks of libcrypto for one evaluation, as a plain C loop.
 *
 * Mirrors Sources/OpenSSLBackend: one X509_STORE with the anchors, made once (OpenSSLEvaluator);
 * per evaluation the presented chain parsed with d2i_X509 into a leaf and an untrusted stack
 * (PresentedChain), one X509_STORE_CTX with purpose, flags, time and host (VerificationContext),
 * X509_verify_cert, and the verified path re-encoded with i2d_X509.
 */

#include "CBaselines.h"
#include "BaselineClock.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/* Parses exactly one DER certificate filling der[0..length), as parseOwnedX509 does; NULL otherwise. */
static X509 *parse_der(const uint8_t *der, size_t length) {
    if (der == NULL || length == 0 || length > (size_t)LONG_MAX) return NULL;
    const unsigned char *cursor = der;
    X509 *x509 = d2i_X509(NULL, &cursor, (long)length);
    if (x509 != NULL && (size_t)(cursor - der) != length) {
        X509_free(x509);
        return NULL;
    }
    return x509;
}

/* The presented chain, parsed: the leaf and, when there are more certificates, the untrusted stack. */
typedef struct presented_chain {
    X509 *leaf;
    STACK_OF(X509) *untrusted;
} presented_chain;

static void presented_chain_free(presented_chain *chain) {
    if (chain->untrusted != NULL) sk_X509_pop_free(chain->untrusted, X509_free);
    X509_free(chain->leaf);
    chain->leaf = NULL;
    chain->untrusted = NULL;
}

/* 0, or a negative TH_BASELINE_* error with nothing left allocated. */
static int presented_chain_parse(const th_baseline_input *in, presented_chain *chain) {
    chain->leaf = parse_der(in->chain[0], in->chain_lengths[0]);
    chain->untrusted = NULL;
    if (chain->leaf == NULL) return TH_BASELINE_UNPARSEABLE;
    if (in->chain_count == 1) return 0;
    chain->untrusted = sk_X509_new_null();
    if (chain->untrusted == NULL) {
        presented_chain_free(chain);
        return TH_BASELINE_LIBRARY_FAILED;
    }
    for (size_t index = 1; index < in->chain_count; index++) {
        X509 *x509 = parse_der(in->chain[index], in->chain_lengths[index]);
        if (x509 == NULL) {
            presented_chain_free(chain);
            return TH_BASELINE_UNPARSEABLE;
        }
        if (sk_X509_push(chain->untrusted, x509) <= 0) {
            X509_free(x509);
            presented_chain_free(chain);
            return TH_BASELINE_LIBRARY_FAILED;
        }
    }
    return 0;
}

/* The input's CRLs (an empty stack when checking is asked with none); NULL when none are to be checked. */
static int crls_parse(const th_baseline_input *in, STACK_OF(X509_CRL) **out) {
    *out = NULL;
    if (in->crls == NULL) return 0;
    if (in->crl_count > 0 && in->crl_lengths == NULL) return TH_BASELINE_BAD_INPUT;
    STACK_OF(X509_CRL) *crls = sk_X509_CRL_new_null();
    if (crls == NULL) return TH_BASELINE_LIBRARY_FAILED;
    for (size_t index = 0; index < in->crl_count; index++) {
        if (in->crl_lengths[index] == 0 || in->crl_lengths[index] > (size_t)LONG_MAX) {
            sk_X509_CRL_pop_free(crls, X509_CRL_free);
            return TH_BASELINE_UNPARSEABLE;
        }
        const unsigned char *cursor = in->crls[index];
        X509_CRL *crl = d2i_X509_CRL(NULL, &cursor, (long)in->crl_lengths[index]);
        if (crl == NULL) {
            sk_X509_CRL_pop_free(crls, X509_CRL_free);
            return TH_BASELINE_UNPARSEABLE;
        }
        if (sk_X509_CRL_push(crls, crl) <= 0) {
            X509_CRL_free(crl);
            sk_X509_CRL_pop_free(crls, X509_CRL_free);
            return TH_BASELINE_LIBRARY_FAILED;
        }
    }
    *out = crls;
    return 0;
}

/* The CRLs of the run on this thread (NULL: none), lent to each of its verifications. */
static _Thread_local STACK_OF(X509_CRL) *current_crls = NULL;

/* The back end's CRL flags when CRLs are given (VerificationContext). */
static unsigned long crl_flags(void) {
    return current_crls == NULL ? 0 : X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL | X509_V_FLAG_EXTENDED_CRL_SUPPORT | X509_V_FLAG_USE_DELTAS;
}

static int input_is_usable(const th_baseline_input *in, const uint64_t *elapsed_ns) {
    return in != NULL && elapsed_ns != NULL && in->chain != NULL && in->chain_lengths != NULL
        && in->chain_count > 0 && (in->anchor_count == 0 || (in->anchors != NULL && in->anchor_lengths != NULL));
}

/* The verified path, each certificate re-encoded into a buffer of its own, as the back end's Verdict
 * holds it; 1 when every certificate was encoded. */
static int encode_verified_path(X509_STORE_CTX *ctx) {
    STACK_OF(X509) *path = X509_STORE_CTX_get0_chain(ctx);
    int count = path == NULL ? 0 : sk_X509_num(path);
    if (count <= 0) return 0;
    for (int index = 0; index < count; index++) {
        X509 *x509 = sk_X509_value(path, index);
        int length = i2d_X509(x509, NULL);
        if (length <= 0) return 0;
        unsigned char *der = (unsigned char *)malloc((size_t)length);
        if (der == NULL) return 0;
        unsigned char *cursor = der;
        int written = i2d_X509(x509, &cursor);
        free(der);
        if (written != length) return 0;
    }
    return 1;
}

/* One X509_verify_cert as a plain libssl 3.0 client has it verify a server's chain with
 * SSL_VERIFY_PEER and SSL_set1_host and nothing else set (ssl_verify_cert_chain, ssl/ssl_cert.c):
 * X509_STORE_CTX_set_default(ctx, "ssl_server") (purpose and trust ssl_server, the "default" entry's
 * X509_V_FLAG_TRUSTED_FIRST and depth 100), the auth level of the SSL's security level (2 in Debian
 * 12's build), no X509_STRICT, no PARTIAL_CHAIN; SSL_set1_host's address-or-name with host flags 0.
 * The time is the request's, as a client whose clock reads it would verify. 1 verified, 0 not. */
static int verify_as_plain_client(X509_STORE *store, const presented_chain *chain, const th_baseline_input *in) {
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (ctx == NULL) return TH_BASELINE_LIBRARY_FAILED;
    int result = TH_BASELINE_LIBRARY_FAILED;
    if (X509_STORE_CTX_init(ctx, store, chain->leaf, chain->untrusted) != 1) goto done;
    if (X509_STORE_CTX_set_default(ctx, "ssl_server") != 1) goto done;
    X509_VERIFY_PARAM *param = X509_STORE_CTX_get0_param(ctx);
    X509_VERIFY_PARAM_set_auth_level(param, 2);
    X509_VERIFY_PARAM_set_time(param, (time_t)in->unix_time);
    if (current_crls != NULL) {
        X509_STORE_CTX_set0_crls(ctx, current_crls);
        if (X509_VERIFY_PARAM_set_flags(param, crl_flags()) != 1) goto done;
    }
    if (in->host != NULL && X509_VERIFY_PARAM_set1_ip_asc(param, in->host) != 1) {
        if (X509_VERIFY_PARAM_set1_host(param, in->host, strlen(in->host)) != 1) goto done;
    }
    result = X509_verify_cert(ctx) == 1 && X509_STORE_CTX_get_error(ctx) == X509_V_OK ? 1 : 0;
done:
    X509_STORE_CTX_free(ctx);
    ERR_clear_error();
    return result;
}

/* One X509_verify_cert exactly as VerificationContext configures it: 1 verified, 0 not, negative on
 * setup errors. */
static int verify_once(X509_STORE *store, const presented_chain *chain, const th_baseline_input *in) {
    const unsigned long flags = X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_TRUSTED_FIRST | X509_V_FLAG_X509_STRICT
        | X509_V_FLAG_USE_CHECK_TIME;
    X509_STORE_CTX *ctx = X509_STORE_CTX_new();
    if (ctx == NULL) return TH_BASELINE_LIBRARY_FAILED;
    X509_VERIFY_PARAM *param = NULL; /* made by X509_STORE_CTX_init */
    int verified = 0;
    int result = TH_BASELINE_LIBRARY_FAILED;
    if (X509_STORE_CTX_init(ctx, store, chain->leaf, chain->untrusted) != 1) goto done;
    if (X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER) != 1) goto done;
    param = X509_STORE_CTX_get0_param(ctx);
    if (current_crls != NULL) X509_STORE_CTX_set0_crls(ctx, current_crls);
    if (X509_VERIFY_PARAM_set_flags(param, flags | crl_flags()) != 1) goto done;
    X509_VERIFY_PARAM_set_auth_level(param, 2);
    X509_VERIFY_PARAM_set_time(param, (time_t)in->unix_time);
    /* The back end's host flags, set whatever the host (VerificationContext): NEVER_CHECK_SUBJECT
     * also keeps a subject CN out of the name-constraint check. An address in text is checked as an
     * address (X509_VERIFY_PARAM_set1_ip_asc), as VerificationContext passes an IP host with
     * X509_VERIFY_PARAM_set1_ip; anything else as a DNS name. */
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    if (in->host != NULL && X509_VERIFY_PARAM_set1_ip_asc(param, in->host) != 1) {
        if (X509_VERIFY_PARAM_set1_host(param, in->host, strlen(in->host)) != 1) goto done;
    }
    verified = X509_verify_cert(ctx);
    result = verified == 1 && X509_STORE_CTX_get_error(ctx) == X509_V_OK && encode_verified_path(ctx) ? 1 : 0;
done:
    X509_STORE_CTX_free(ctx);
    /* The back end leaves the thread's error queue empty after every evaluation. */
    ERR_clear_error();
    return result;
}

static int run_loop(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns,
                    int (*verify)(X509_STORE *, const presented_chain *, const th_baseline_input *));

int th_openssl_baseline_run(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns) {
    return run_loop(in, parse_each_time, iterations, elapsed_ns, verify_once);
}

int th_openssl_plain_client_run(const th_baseline_input *in, uint64_t *elapsed_ns) {
    return run_loop(in, 1, 1, elapsed_ns, verify_as_plain_client);
}

static int run_loop(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns,
                    int (*verify)(X509_STORE *, const presented_chain *, const th_baseline_input *)) {
    if (!input_is_usable(in, elapsed_ns)) return TH_BASELINE_BAD_INPUT;
    *elapsed_ns = 0;

    X509_STORE *store = X509_STORE_new();
    if (store == NULL) return TH_BASELINE_LIBRARY_FAILED;
    presented_chain parsed = { NULL, NULL };
    uint64_t start = 0;
    int result = 0;
    for (size_t index = 0; index < in->anchor_count; index++) {
        X509 *anchor = parse_der(in->anchors[index], in->anchor_lengths[index]);
        if (anchor == NULL) {
            result = TH_BASELINE_UNPARSEABLE;
            goto done;
        }
        /* The store takes its own reference. */
        int added = X509_STORE_add_cert(store, anchor);
        X509_free(anchor);
        if (added != 1) {
            result = TH_BASELINE_LIBRARY_FAILED;
            goto done;
        }
    }

    result = crls_parse(in, &current_crls);
    if (result < 0) goto done;
    if (!parse_each_time) {
        result = presented_chain_parse(in, &parsed);
        if (result < 0) goto done;
    }

    start = th_monotonic_ns();
    for (uint64_t iteration = 0; iteration < iterations; iteration++) {
        if (parse_each_time) {
            result = presented_chain_parse(in, &parsed);
            if (result < 0) break;
        }
        result = verify(store, &parsed, in);
        if (parse_each_time) presented_chain_free(&parsed);
        if (result < 0) break;
    }
    *elapsed_ns = th_monotonic_ns() - start;
done:
    presented_chain_free(&parsed);
    if (current_crls != NULL) sk_X509_CRL_pop_free(current_crls, X509_CRL_free);
    current_crls = NULL;
    X509_STORE_free(store);
    ERR_clear_error();
    return result;
}

int th_openssl_parse_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns) {
    if (!input_is_usable(in, elapsed_ns)) return TH_BASELINE_BAD_INPUT;
    *elapsed_ns = 0;
    int result = 1;
    uint64_t start = th_monotonic_ns();
    for (uint64_t iteration = 0; iteration < iterations; iteration++) {
        presented_chain parsed;
        result = presented_chain_parse(in, &parsed);
        if (result < 0) break;
        presented_chain_free(&parsed);
        result = 1;
    }
    *elapsed_ns = th_monotonic_ns() - start;
    ERR_clear_error();
    return result;
}

int th_openssl_signatures_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns) {
    if (!input_is_usable(in, elapsed_ns) || in->chain_count < 2 || in->anchor_count < 1) return TH_BASELINE_BAD_INPUT;
    *elapsed_ns = 0;
    X509 *leaf = parse_der(in->chain[0], in->chain_lengths[0]);
    X509 *intermediate = parse_der(in->chain[1], in->chain_lengths[1]);
    X509 *root = parse_der(in->anchors[0], in->anchor_lengths[0]);
    EVP_PKEY *intermediateKey = intermediate == NULL ? NULL : X509_get0_pubkey(intermediate);
    EVP_PKEY *rootKey = root == NULL ? NULL : X509_get0_pubkey(root);
    uint64_t start = 0;
    int result = TH_BASELINE_UNPARSEABLE;
    if (leaf == NULL || intermediateKey == NULL || rootKey == NULL) goto done;

    result = 0;
    start = th_monotonic_ns();
    for (uint64_t iteration = 0; iteration < iterations; iteration++) {
        int leafSigned = X509_verify(leaf, intermediateKey);
        int intermediateSigned = X509_verify(intermediate, rootKey);
        result = leafSigned == 1 && intermediateSigned == 1 ? 1 : 0;
    }
    *elapsed_ns = th_monotonic_ns() - start;
done:
    X509_free(leaf);
    X509_free(intermediate);
    X509_free(root);
    ERR_clear_error();
    return result;
}
