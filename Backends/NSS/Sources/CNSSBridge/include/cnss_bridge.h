// CNSSBridge: one NSS verification as NSS's own TLS client asks it, behind a C interface with no
// NSS types, so that the Swift back end never sees CERTValInParam unions or NSPR error state.
#ifndef CNSS_BRIDGE_H
#define CNSS_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#define CNSS_MAX_LOG 32

/// The outcome of `cnss_verify`.
typedef struct cnss_outcome {
    /// 1 when CERT_PKIXVerifyCert succeeded and (with a host) CERT_VerifyCertName matched.
    int trusted;
    /// The error of the step that failed (a PRErrorCode: SEC_ERROR_*, SSL_ERROR_*), 0 when trusted.
    int error;
    /// Which step failed: 0 none, 1 importing a certificate, 2 path validation, 3 the host name,
    /// 4 an internal failure (allocation, NSS not initialised), 5 caching a CRL (CERT_CacheCRL).
    int step;
    /// For step 1: the index of the certificate that could not be imported (anchors first, then
    /// the presented chain); for step 5 the index of the CRL NSS would not take.
    int failed_index;
    /// The verify log of path validation (CERTVerifyLog): error and depth of each entry, and for an
    /// expired-or-not-yet-valid entry what CERT_CheckCertValidTimes says of that certificate at the
    /// validation time (1 expired, 2 not yet valid, 0 otherwise).
    int log_count;
    int log_errors[CNSS_MAX_LOG];
    int log_depths[CNSS_MAX_LOG];
    int log_validity[CNSS_MAX_LOG];
    /// For a time error of the top-level error: CERT_CheckCertValidTimes of the leaf as above.
    int leaf_validity;
} cnss_outcome;

/// Receives each certificate of the validated path (DER, leaf first, ending at the anchor).
typedef void (*cnss_path_sink)(void *context, const uint8_t *der, size_t length);

/// Initialises NSS without a database (NSS_NoDB_Init) if it is not; 0 on success, else the error.
int cnss_initialize(void);
/// Shuts NSS down and initialises it again, which empties its temporary certificate store and
/// libpkix's caches (NSS_Shutdown calls PKIX_Shutdown); 0 on success, else the error
/// (SEC_ERROR_BUSY when a certificate is still referenced).
int cnss_reset(void);

/// Revocation checking asked of CERT_PKIXVerifyCert (cert_pi_revocationFlags, CRL method only,
/// never the network; see cnss_bridge.c).
enum {
    /// No method tested (CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD).
    CNSS_REVOCATION_NONE = 0,
    /// The CRL method, missing information ignored: NSS's own classic policy
    /// (CERT_GetClassicOCSPDisabledPolicy, lib/certhigh/certvfypkix.c).
    CNSS_REVOCATION_SOFT = 1,
    /// The CRL method, fresh information required of every certificate: NSS's NIST policy
    /// (CERT_GetPKIXVerifyNistRevocationPolicy) without network fetching.
    CNSS_REVOCATION_HARD = 2,
};

/// Validates `chain` (DER, leaf first) against exactly `anchors` at `time_us` (microseconds since
/// 1970, PRTime) with CERT_PKIXVerifyCert for `usage_any ? no usage : certificateUsageSSLServer`,
/// revocation checked as `revocation` says (CNSS_REVOCATION_*) against `crls` (DER, each given to
/// NSS's CRL cache with CERT_CacheCRL for the call and removed with CERT_UncacheCRL before
/// returning) and no network, then, when `host` is not NULL, checks the leaf with
/// CERT_VerifyCertName as NSS's TLS client does (ssl/sslauth.c, SSL_AuthCertificate). Every
/// certificate is imported as a temporary certificate and released before returning.
void cnss_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                 const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                 const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int revocation,
                 const char *host, int64_t time_us, int usage_any,
                 cnss_outcome *outcome, cnss_path_sink sink, void *sink_context);

/// 0 when `der` decodes as a certificate (CERT_DecodeDERCertificate, not entered in any store),
/// else the error.
int cnss_decode(const uint8_t *der, size_t length);

/// The symbolic name of an NSPR/NSS error (PR_ErrorToName), or NULL when no error table knows it.
const char *cnss_error_name(int code);
/// NSS's English text for an error (PR_ErrorToString), or NULL when no error table knows it (never
/// NSPR's "Unknown code" text, which it formats in a static buffer that concurrent calls overflow).
const char *cnss_error_text(int code);
/// The class of an NSS error for the taxonomy: 1 a validity period (expired or not yet valid),
/// 2 no path to an anchor, 3 an issuer that is not a CA, 4 a path length constraint, 5 a signature,
/// 6 key usage or certificate type, 7 revoked, 8 undecodable input (a certificate or a CRL), 9 the
/// host name, 0 anything else.
int cnss_error_class(int code);
/// NSS_GetVersion().
const char *cnss_version(void);

/// The bare loop `bench` compares the back end with: `iterations` times `cnss_verify`, the call the
/// back end makes (import the anchors and the chain, CERT_PKIXVerifyCert asked for the path, the
/// anchor and the verify log, CERT_VerifyCertName, release); nanoseconds elapsed, or 0 when a
/// verification failed. No reset between iterations: what an application calling NSS does.
uint64_t cnss_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                   const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                   const char *host, int64_t time_us, uint64_t iterations);

// The same calls in worker processes.
#include "cnss_worker.h"

#endif
