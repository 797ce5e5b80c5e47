// CWolfSSLBridge: one wolfSSL verification as wolfSSL's own TLS client makes it (ProcessPeerCerts,
// src/internal.c), behind a C interface with no wolfSSL types, so that the Swift back end never sees
// WOLFSSL_CERT_MANAGER, WOLFSSL_X509 or wolfSSL's configuration macros.
#ifndef CWOLFSSL_BRIDGE_H
#define CWOLFSSL_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#define CWOLFSSL_MAX_LOG 32
#define CWOLFSSL_MAX_PATH 16

/// Where a logged error arose.
enum {
    /// wolfSSL_CertManagerLoadCABuffer of an anchor (`index` is the anchor's).
    CWOLFSSL_STAGE_ANCHOR = 1,
    /// The certificate list as a TLS Certificate message: more than MAX_CHAIN_DEPTH certificates or
    /// more than MAX_CERTIFICATE_SZ bytes (ProcessPeerCerts' own limits).
    CWOLFSSL_STAGE_MESSAGE = 2,
    /// wolfSSL_CertManagerVerifyBuffer of a presented certificate (`index` its position, 0 the leaf).
    CWOLFSSL_STAGE_VERIFY = 3,
    /// Adding a verified presented CA certificate as a signer (AddCA's WOLFSSL_CHAIN_CA rules).
    CWOLFSSL_STAGE_ADD_CA = 4,
    /// The leaf's key usage or extended key usage for a TLS server (ProcessPeerCerts' checks).
    CWOLFSSL_STAGE_PURPOSE = 5,
    /// The host: wolfSSL_X509_check_host or wolfSSL_X509_check_ip_asc (CheckHostName).
    CWOLFSSL_STAGE_HOST = 6,
    /// wolfSSL could not be initialised, or an allocation failed.
    CWOLFSSL_STAGE_INTERNAL = 7,
    /// wolfSSL trusted the leaf, but the signers it verified the certificates with do not lead from
    /// the leaf to a loaded anchor (see signer_path in cwolfssl_bridge.c; not expected to happen, kept
    /// so that a verdict without a path fails closed).
    CWOLFSSL_STAGE_PATH = 8,
    /// wolfSSL_CertManagerLoadCRLBuffer of a CRL of the request (`index` is the CRL's): wolfSSL would
    /// not load it (it verifies a CRL as it loads it: its encoding, its signer among the manager's
    /// CAs, its signature, its nextUpdate at the validation time).
    CWOLFSSL_STAGE_CRL_LOAD = 9,
    /// wolfSSL_CertManagerCheckCRL of a presented certificate (`index` its position): revoked, or no
    /// CRL of its issuer (CRL_MISSING).
    CWOLFSSL_STAGE_CRL_CHECK = 10,
};

/// Not wolfSSL's: the path of a trusted verdict could not be read from the signers wolfSSL used.
#define CWOLFSSL_PATH_UNRESOLVED (-100001)
/// Not wolfSSL's: the leaf cannot be given to wolfSSL's host check (wolfSSL_X509_d2i cannot make a
/// WOLFSSL_X509 of it: every Ed25519 certificate in 5.5.4 with OPENSSL_ALL).
#define CWOLFSSL_HOST_UNAVAILABLE (-100002)

/// The outcome of `cwolfssl_verify`.
typedef struct cwolfssl_outcome {
    /// 1 when wolfSSL trusted the chain for the host, with the path in `path`.
    int trusted;
    /// Every error logged, in the order wolfSSL met them: its code (a negative wolfSSL error), the
    /// stage and the index of the certificate (anchor index for CWOLFSSL_STAGE_ANCHOR, else the
    /// position in the presented chain, -1 for none).
    int count;
    int codes[CWOLFSSL_MAX_LOG];
    int stages[CWOLFSSL_MAX_LOG];
    int indices[CWOLFSSL_MAX_LOG];
    /// The trusted path, leaf first: index i >= 0 is presented certificate i, -1 - i is anchor i. It
    /// is the path wolfSSL validated: each step the certificate whose signer verified the one before.
    int path_count;
    int path[CWOLFSSL_MAX_PATH];
} cwolfssl_outcome;

/// Initialises wolfSSL (wolfSSL_Init) and installs the time hook (wc_SetTimeCb), once per process;
/// 0 on success, else wolfSSL's error.
int cwolfssl_initialize(void);

/// Verifies `chain` (DER, leaf first) against exactly `anchors` at `unix_time` as wolfSSL's TLS
/// client does, in a certificate manager of its own made for this call (see cwolfssl_bridge.c);
/// with `check_crls`, revocation checked as a client with wolfSSL_CertManagerEnableCRL(cm,
/// WOLFSSL_CRL_CHECKALL) does, against `crls` (DER) and nothing fetched; then, unless
/// `any_purpose`, the leaf's key usage and extended key usage for a TLS server; then, when `host` is
/// not NULL, the host (`host_is_ip`: an IP address in text form). Every clock read of wolfSSL on this
/// thread during the call returns `unix_time`.
void cwolfssl_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int check_crls,
                     const char *host, int host_is_ip, int64_t unix_time, int any_purpose,
                     cwolfssl_outcome *outcome);

/// 0 when `der` decodes as a certificate (wc_ParseCert without verification), else wolfSSL's error.
int cwolfssl_decode(const uint8_t *der, size_t length);

/// The symbolic name of a wolfSSL error code (ASN_AFTER_DATE_E, ...), or NULL.
const char *cwolfssl_error_name(int code);
/// wolfSSL's text for an error code (wolfSSL_ERR_reason_error_string), or NULL.
const char *cwolfssl_error_text(int code);
/// The class of a wolfSSL error for the taxonomy: 1 expired, 2 not yet valid, 3 no path to an
/// anchor, 4 not a CA, 5 path length, 6 signature, 7 purpose (key usage, extended key usage),
/// 8 undecodable input, 9 host name, 10 name constraints, 11 revoked, 0 anything else.
int cwolfssl_error_class(int code);
/// wolfSSL_lib_version().
const char *cwolfssl_version(void);

/// The bare loop `bench` compares the back end with: `iterations` times, a new certificate manager,
/// the anchors loaded, the chain verified top down with the verified CAs loaded, the leaf verified,
/// the host checked, freed: what a wolfSSL client application does per connection with a fresh
/// context. Nanoseconds elapsed, or 0 when a verification failed.
uint64_t cwolfssl_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const char *host, int host_is_ip, int64_t unix_time, uint64_t iterations);

#endif
