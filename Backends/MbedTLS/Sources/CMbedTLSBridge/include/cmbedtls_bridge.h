// CMbedTLSBridge: one mbedTLS 2.28 verification, asked as mbedTLS's own TLS client asks it, behind a
// C interface with no mbedTLS types, so that the Swift back end never sees mbedtls_x509_crt lists,
// their `next` pointers or the library's flag macros.
#ifndef CMBEDTLS_BRIDGE_H
#define CMBEDTLS_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

/// Room for the flags of every certificate of a verified chain: mbedTLS's own chain holds at most
/// MBEDTLS_X509_MAX_VERIFY_CHAIN_SIZE (MBEDTLS_X509_MAX_INTERMEDIATE_CA + 2 = 10) certificates.
#define CMBEDTLS_MAX_DEPTH 16

/// The certificate profiles of x509_crt.c: mbedtls_x509_crt_profile_default, _next and _suiteb.
enum {
    CMBEDTLS_PROFILE_DEFAULT = 0,
    CMBEDTLS_PROFILE_NEXT = 1,
    CMBEDTLS_PROFILE_SUITEB = 2,
};

/// What the leaf must allow after path validation.
enum {
    /// Nothing: mbedtls_x509_crt_verify_with_profile alone (validation for any purpose).
    CMBEDTLS_USAGE_ANY = 0,
    /// A TLS server, as the TLS client checks it: mbedtls_ssl_check_cert_usage (ssl_tls.c) for an
    /// ECDHE suite of the leaf's key type (keyUsage digitalSignature, extendedKeyUsage serverAuth).
    CMBEDTLS_USAGE_TLS_SERVER = 1,
};

/// Which step decided a rejection.
enum {
    CMBEDTLS_STEP_NONE = 0,
    /// A presented certificate mbedTLS could not parse (`failed_index`, `error`).
    CMBEDTLS_STEP_PARSE = 1,
    /// mbedtls_x509_crt_verify_with_profile returned an error other than CERT_VERIFY_FAILED
    /// (`error`): the chain could not be built or examined at all.
    CMBEDTLS_STEP_FATAL = 2,
    /// Verification flags were set (`flags`, `depth_flags`, `usage_flags`).
    CMBEDTLS_STEP_FLAGS = 3,
    /// The bridge itself failed (allocation, the clock could not be pinned).
    CMBEDTLS_STEP_INTERNAL = 4,
    /// A CRL mbedTLS could not parse (`failed_index`, `error`): mbedtls_x509_crl_parse_der.
    CMBEDTLS_STEP_CRL_PARSE = 5,
};

/// The parsed trust anchors: one mbedtls_x509_crt list, never changed once made.
typedef struct cmbedtls_anchors cmbedtls_anchors;

/// The outcome of `cmbedtls_verify`.
typedef struct cmbedtls_outcome {
    /// 1 when verification returned 0, the usage check (if asked) passed and no flag is set.
    int trusted;
    /// CMBEDTLS_STEP_*.
    int step;
    /// For STEP_PARSE and STEP_FATAL: mbedTLS's (negative) error code.
    int error;
    /// For STEP_PARSE: the index of the presented certificate that did not parse; for
    /// STEP_CRL_PARSE, of the CRL.
    int failed_index;
    /// Every flag of the verification and of the usage check (MBEDTLS_X509_BADCERT_* / BADCRL_*).
    uint32_t flags;
    /// The certificates of the chain mbedTLS built (leaf first), as many as `depth_flags` holds.
    int depth_count;
    /// The flags mbedTLS reported for each certificate of its chain (index = depth, 0 the leaf).
    uint32_t depth_flags[CMBEDTLS_MAX_DEPTH];
    /// For each certificate of the chain, its index in the presented chain, or -1 for an anchor.
    int depth_presented_index[CMBEDTLS_MAX_DEPTH];
    /// The flags mbedtls_ssl_check_cert_usage added (at the leaf).
    uint32_t usage_flags;
    /// Presented certificates (never the leaf) skipped as the TLS client skips them: an unknown
    /// signature algorithm (MBEDTLS_ERR_X509_UNKNOWN_SIG_ALG + MBEDTLS_ERR_OID_NOT_FOUND).
    int skipped;
} cmbedtls_outcome;

/// Receives each certificate of the validated path (DER, leaf first, ending at the anchor).
typedef void (*cmbedtls_path_sink)(void *context, const uint8_t *der, size_t length);

/// Parses `count` anchors (DER) into one list with mbedtls_x509_crt_parse_der, as
/// mbedtls_x509_crt_parse loads a bundle of CA certificates (x509_crt.c): a certificate that does not
/// parse is left out (its error in `errors[i]`, 0 for those parsed), and only a memory error stops.
/// 0 with `*out` set (possibly an empty list), or MBEDTLS_ERR_X509_ALLOC_FAILED.
int cmbedtls_anchors_make(const uint8_t *const *ders, const size_t *lengths, size_t count,
                          cmbedtls_anchors **out, int *errors);
void cmbedtls_anchors_free(cmbedtls_anchors *anchors);

/// Parses `chain` (DER, leaf first) as the TLS client parses a Certificate message
/// (ssl_parse_certificate_chain, ssl_tls.c) and `crls` (DER, each with mbedtls_x509_crl_parse_der
/// into one list, as mbedtls_x509_crl_parse loads them; any error stops), then, with this thread's
/// mbedTLS clock pinned to `unix_time` (cmbedtls_clock.c), mbedtls_x509_crt_verify_with_profile
/// against `anchors` with the CRL list as ca_crl (NULL when there are none), `profile` and `host` as
/// `cn` (NULL: no name check), then the usage check `usage`. The pin covers the CRLs' thisUpdate and
/// nextUpdate checks too (x509_crt_verifycrl calls mbedtls_x509_time_is_past and _is_future, in
/// libmbedx509 like every validity check). Never reads the real clock; writes the outcome and, when
/// trusted, the path to `sink`.
void cmbedtls_verify(const cmbedtls_anchors *anchors,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                     const char *host, int64_t unix_time, int profile, int usage,
                     cmbedtls_outcome *outcome, cmbedtls_path_sink sink, void *sink_context);

/// mbedTLS's text for a single verification flag (mbedtls_x509_crt_verify_info), into `buffer`.
void cmbedtls_flag_text(uint32_t flag, char *buffer, size_t length);
/// mbedTLS's text for an error code (mbedtls_strerror), into `buffer`.
void cmbedtls_error_text(int code, char *buffer, size_t length);
/// The symbolic name of an mbedTLS error code's high-level part (MBEDTLS_ERR_X509_*, _PK_*, ...),
/// or NULL when the bridge does not know it.
const char *cmbedtls_high_level_name(int code);
/// The symbolic name of an mbedTLS error code's low-level part (MBEDTLS_ERR_ASN1_*, _OID_*, ...),
/// or NULL.
const char *cmbedtls_low_level_name(int code);
/// mbedtls_version_get_string_full() into `buffer` (at least 18 bytes): "mbed TLS 2.28.3".
void cmbedtls_version(char *buffer);

/// Whether this thread's pinned clock reaches mbedTLS: mbedtls_x509_time_is_past and _is_future
/// asked about a fixed instant with the clock pinned to 1970 and to 2100 answer as those times
/// require, not as the real clock would. 1 when they do, else 0 (see cmbedtls_clock.c).
int cmbedtls_clock_reaches_mbedtls(void);

/// The bare loop `bench` compares the back end with (and the fidelity reference): the anchors and
/// the CRLs parsed once (mbedtls_x509_crt_parse_der, mbedtls_x509_crl_parse_der), then `iterations`
/// times parse the chain, verify with the CRLs as ca_crl (NULL when `crl_count` is 0), `profile`
/// (CMBEDTLS_PROFILE_*) and `host`, the usage check `usage` (CMBEDTLS_USAGE_*), free; nanoseconds
/// elapsed, or 0 when anything did not parse or a verification failed. `cold` changes nothing: the
/// back end parses the presented chain on every evaluation either way and keeps its anchors.
uint64_t cmbedtls_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                       const char *host, int64_t unix_time, int profile, int usage, int cold, uint64_t iterations);

#endif
