#ifndef CBASELINES_H
#define CBASELINES_H

/*
 * The raw C loops TrustHarness's back ends are measured against: the same library calls with the same
 * settings as OpenSSLBackend and GnuTLSBackend make for one evaluation, without any Swift around them.
 * The ratio back end / baseline is what the back ends add on top of their library.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct th_baseline_input {
    const uint8_t *const *chain; const size_t *chain_lengths; size_t chain_count;     /* DER, leaf first, in order */
    const uint8_t *const *anchors; const size_t *anchor_lengths; size_t anchor_count; /* DER */
    const char *host;      /* DNS name, or NULL for no host check */
    int64_t unix_time;     /* OpenSSL: X509_VERIFY_PARAM_set_time; GnuTLS: read through the process time hook (caller sets it) */
    /* CRLs, DER (crls NULL: no revocation checking; crls set with crl_count 0: checking with no CRL,
     * which OpenSSL's hard-fail fails for every certificate), loaded once before the loop as a client loads
     * its CRLs: OpenSSL X509_STORE_CTX_set0_crls with X509_V_FLAG_CRL_CHECK | X509_V_FLAG_CRL_CHECK_ALL
     * | X509_V_FLAG_EXTENDED_CRL_SUPPORT | X509_V_FLAG_USE_DELTAS (as VerificationContext); GnuTLS
     * gnutls_x509_trust_list_add_crls, with GNUTLS_TL_VERIFY_CRL in the back end's loop and unverified
     * in the plain client's (gnutls_certificate_set_x509_crl_mem's default). */
    const uint8_t *const *crls; const size_t *crl_lengths; size_t crl_count;
} th_baseline_input;

/*
 * Runs `iterations` evaluations exactly as the back end configures its library; parse_each_time != 0
 * decodes the chain's DER every iteration (cold), else once before the loop (warm). Returns 1 when the
 * last evaluation verified, 0 when it did not, negative on setup errors. *elapsed_ns = wall time of the
 * loop only (CLOCK_MONOTONIC).
 *
 * The GnuTLS loop never sets GnuTLS's time function: it reads the time through whatever hook the
 * process has installed, so run it inside GnuTLSBackend.withValidationTime to verify at unix_time.
 */
int th_openssl_baseline_run(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns);
int th_gnutls_baseline_run(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns);

/*
 * One cold verification as a plain TLS client of the library verifies a server's chain, with nothing
 * of the back end's settings (`fidelity`'s reference for openssl-default and gnutls-default): OpenSSL
 * as ssl_verify_cert_chain with SSL_set1_host, GnuTLS as gnutls_certificate_verify_peers3. Returns
 * 1 verified, 0 not, negative on setup errors.
 */
int th_openssl_plain_client_run(const th_baseline_input *in, uint64_t *elapsed_ns);
int th_gnutls_plain_client_run(const th_baseline_input *in, uint64_t *elapsed_ns);

/*
 * Two signature verifications (leaf by intermediate, intermediate by root) with OpenSSL, certificates
 * parsed once: the signature limit. Needs chain[0], chain[1] and anchors[0]; returns 1 when both
 * signatures verified in the last iteration, 0 when not, negative on setup errors.
 */
int th_openssl_signatures_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns);

/*
 * Decodes the chain's DER into the library's certificate objects exactly as the cold loop above does
 * (OpenSSL: d2i_X509 into a leaf and an untrusted stack; GnuTLS: gnutls_x509_crt_import) and frees
 * them, `iterations` times: the parse share of a cold evaluation. Returns 1, or negative on setup errors
 * or DER the library refuses.
 */
int th_openssl_parse_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns);
int th_gnutls_parse_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns);

/* Setup errors (negative results). */
enum {
    TH_BASELINE_BAD_INPUT = -1,      /* NULL pointers, an empty chain, too few certificates */
    TH_BASELINE_UNPARSEABLE = -2,    /* a certificate is not exactly one DER certificate */
    TH_BASELINE_LIBRARY_FAILED = -3, /* the library could not allocate or initialise something */
};

#ifdef __cplusplus
}
#endif

#endif /* CBASELINES_H */
