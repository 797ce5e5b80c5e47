// One wolfSSL verification, made as wolfSSL 5.5.4's TLS client makes it (see cwolfssl_bridge.h).
//
// Why the certificate manager and not wolfSSL's X509_STORE layer: in 5.5.4 (Debian 12's
// 5.5.4-2+deb12u3) wolfSSL_X509_STORE_CTX_init adds every certificate of the untrusted stack that
// says it is a CA to the store as a trusted WOLFSSL_USER_CA, unverified (src/x509_str.c, through
// wolfSSL_X509_STORE_add_cert -> AddCA(..., WOLFSSL_USER_CA, VERIFY), which checks no signature for
// CA_TYPE), and wolfSSL_X509_verify_cert is one wolfSSL_CertManagerVerifyBuffer of the leaf that
// ignores the time set with X509_STORE_CTX_set_time (the store's check_time is read by nothing in the
// verification) and checks no host. That is not what a wolfSSL TLS client gets. Its client verifies
// the peer's chain in ProcessPeerCerts (src/internal.c): the presented certificates from the last to
// the second are each verified against the certificate manager (ParseCertRelative with VERIFY) and,
// when verified and a CA, added to it as signers (AddCA with WOLFSSL_CHAIN_CA); then the leaf is
// verified the same way; then the leaf's key usage and extended key usage for a server and the host
// are checked. This file makes exactly those calls through wolfSSL's public API, on a certificate
// manager of its own per call (so one request's intermediates are never signers for another: a
// WOLFSSL_CTX shared by connections keeps every verified intermediate in its manager for its
// lifetime, which would make a verdict depend on earlier requests).
#include "cwolfssl_bridge.h"

#include <wolfssl/options.h>
#include <wolfssl/ssl.h>
#include <wolfssl/error-ssl.h>
#include <wolfssl/wolfcrypt/asn.h>
#include <wolfssl/wolfcrypt/asn_public.h>
#include <wolfssl/wolfcrypt/error-crypt.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------
// The validation time.
//
// wolfSSL reads the time for every validity check through wc_Time (wc_ValidateDate in
// wolfcrypt/src/asn.c, the XVALIDATE_DATE of GetDate for both notBefore and notAfter of every
// certificate it parses with verification: every presented one), and wc_Time asks the one process-wide
// callback set with wc_SetTimeCb before the system clock. The callback installed here answers the
// time of the request running on the calling thread (a thread-local set by cwolfssl_verify around its
// wolfSSL calls, which never leave the thread), and the real time on any thread with no request.
// Concurrent requests at different times on different threads each see their own time; nothing is
// serialised.

static __thread int request_time_set;
static __thread time_t request_time;

static time_t request_clock(time_t *out) {
    time_t now = request_time_set ? request_time : time(NULL);
    if (out) *out = now;
    return now;
}

typedef struct { int set; time_t time; } time_scope;

static time_scope time_enter(int64_t unix_time) {
    time_scope previous = { request_time_set, request_time };
    request_time = (time_t)unix_time;
    request_time_set = 1;
    return previous;
}

static void time_leave(time_scope previous) {
    request_time = previous.time;
    request_time_set = previous.set;
}

static pthread_once_t initialise_once = PTHREAD_ONCE_INIT;
static int initialise_result;

static void initialise(void) {
    int ret = wolfSSL_Init();
    if (ret != WOLFSSL_SUCCESS) {
        initialise_result = ret ? ret : WOLFSSL_FATAL_ERROR;
        return;
    }
    initialise_result = wc_SetTimeCb(request_clock);
}

int cwolfssl_initialize(void) {
    pthread_once(&initialise_once, initialise);
    return initialise_result;
}

// ---------------------------------------------------------------------------------------------

const char *cwolfssl_version(void) { return wolfSSL_lib_version(); }

const char *cwolfssl_error_text(int code) {
    if (code >= 0) return NULL;
    // wolfCrypt's own codes (-100 to -299) have wolfCrypt's texts; wolfSSL_ERR_reason_error_string
    // answers some of them with OpenSSL-like texts ("certificate verify failed" for ASN_NO_SIGNER_E).
    if (code <= -100 && code > -300) return wc_GetErrorString(code);
    return wolfSSL_ERR_reason_error_string((unsigned long)-code);
}

int cwolfssl_error_class(int code) {
    switch (code) {
    case ASN_AFTER_DATE_E: return 1;
    case ASN_BEFORE_DATE_E: return 2;
    case ASN_NO_SIGNER_E: case ASN_SELF_SIGNED_E: return 3;
    case NOT_CA_ERROR: return 4;
    case ASN_PATHLEN_INV_E: case ASN_PATHLEN_SIZE_E: return 5;
    case ASN_SIG_CONFIRM_E: case ASN_SIG_OID_E: case ASN_SIG_HASH_E: case ASN_SIG_KEY_E: case SIG_VERIFY_E: return 6;
    case EXTKEYUSE_AUTH_E: case KEYUSE_SIGNATURE_E: case KEYUSE_ENCIPHER_E: return 7;
    case ASN_PARSE_E: case ASN_VERSION_E: case ASN_GETINT_E: case ASN_RSA_KEY_E: case ASN_OBJECT_ID_E:
    case ASN_TAG_NULL_E: case ASN_EXPECT_0_E: case ASN_BITSTR_E: case ASN_DATE_SZ_E: case ASN_TIME_E:
    case ASN_INPUT_E: case ASN_ECC_KEY_E: case ASN_ALT_NAME_E: case ASN_CRIT_EXT_E: case BUFFER_E:
    case BUFFER_ERROR: case ASN_UNKNOWN_OID_E:
        return 8;
    case DOMAIN_NAME_MISMATCH: case IPADDR_MISMATCH: return 9;
    case ASN_NAME_INVALID_E: return 10;
    case CRL_CERT_REVOKED: return 11;
    default: return 0;
    }
}

int cwolfssl_decode(const uint8_t *der, size_t length) {
    int init = cwolfssl_initialize();
    if (init != 0) return init;
    if (length == 0 || length > 0x7fffffff) return ASN_PARSE_E;
    DecodedCert cert;
    wc_InitDecodedCert(&cert, der, (word32)length, NULL);
    int ret = wc_ParseCert(&cert, CERT_TYPE, NO_VERIFY, NULL);
    wc_FreeDecodedCert(&cert);
    return ret < 0 ? ret : 0;
}

static void log_error(cwolfssl_outcome *outcome, int code, int stage, int index) {
    if (outcome->count >= CWOLFSSL_MAX_LOG) return;
    int i = outcome->count++;
    outcome->codes[i] = code;
    outcome->stages[i] = stage;
    outcome->indices[i] = index;
}

// A wolfSSL function's result as an error code: 0 for WOLFSSL_SUCCESS, else the (negative) error,
// WOLFSSL_FAILURE (0) reported as WOLFSSL_FATAL_ERROR.
static int as_error(int ret) {
    if (ret == WOLFSSL_SUCCESS) return 0;
    return ret < 0 ? ret : WOLFSSL_FATAL_ERROR;
}

// A presented certificate as wolfSSL decodes it (wc_InitDecodedCert and wc_ParseCert, no
// verification): the DecodedCert whose fields ProcessPeerCerts and AddCA read (isCA, selfSigned,
// extKeyUsage, extExtKeyUsage, the name hashes and the public key). wolfSSL's OpenSSL-compatible
// WOLFSSL_X509 cannot be used for these: with OPENSSL_ALL, CopyDecodedToX509 also makes an
// EVP_PKEY of the key (wolfSSL_d2i_PUBKEY), which 5.5.4 cannot for Ed25519, so wolfSSL_X509_d2i
// returns nothing for every Ed25519 certificate while the TLS client, which reads DecodedCert,
// verifies them.
typedef struct decoded {
    DecodedCert cert;
    int parsed;  // 1 when wc_ParseCert succeeded; the fields are read only then
    int initialised;
} decoded;

static void decode(decoded *d, const uint8_t *der, size_t length) {
    wc_InitDecodedCert(&d->cert, der, (word32)length, NULL);
    d->initialised = 1;
    d->parsed = wc_ParseCert(&d->cert, CERT_TYPE, NO_VERIFY, NULL) == 0;
}

static void release(decoded *d) {
    if (d->initialised) wc_FreeDecodedCert(&d->cert);
    d->initialised = 0;
}

// ProcessPeerCerts' limits on the Certificate message (src/internal.c, wolfssl/internal.h): at most
// MAX_CHAIN_DEPTH (9) certificates, and a certificate list of at most MAX_CERTIFICATE_SZ bytes:
// CERT_HEADER_SZ + (MAX_X509_SIZE + CERT_HEADER_SZ) * MAX_CHAIN_DEPTH, with MAX_X509_SIZE 2048 in
// this build (neither HAVE_PQC nor WOLFSSL_HAPROXY) and CERT_HEADER_SZ 3.
#define CWOLFSSL_MAX_CHAIN_DEPTH 9
#define CWOLFSSL_CERT_HEADER_SZ 3
#define CWOLFSSL_MAX_CERTIFICATE_SZ (CWOLFSSL_CERT_HEADER_SZ + (2048 + CWOLFSSL_CERT_HEADER_SZ) * CWOLFSSL_MAX_CHAIN_DEPTH)

static int message_error(const size_t *chain_lengths, size_t chain_count, int *index) {
    size_t total = 0;
    for (size_t i = 0; i < chain_count; i++) {
        if (i >= CWOLFSSL_MAX_CHAIN_DEPTH) { *index = (int)i; return MAX_CHAIN_ERROR; }
        total += chain_lengths[i] + CWOLFSSL_CERT_HEADER_SZ;
        if (total > CWOLFSSL_MAX_CERTIFICATE_SZ) { *index = (int)i; return BUFFER_ERROR; }
    }
    return 0;
}

// The host check of the leaf: wolfSSL_X509_check_host or wolfSSL_X509_check_ip_asc, both ending in
// CheckHostName (src/internal.c), the function behind the TLS client's domain check: the
// subjectAltName entries, and the common name only when there are none. These take a WOLFSSL_X509,
// which 5.5.4 cannot make of an Ed25519 certificate (see `decoded`): 0 on a match, else the error,
// CWOLFSSL_HOST_UNAVAILABLE when the certificate cannot be given to them.
static int check_host(const uint8_t *der, size_t length, const char *host, int host_is_ip) {
    WOLFSSL_X509 *x509 = wolfSSL_X509_d2i(NULL, der, (int)length);
    if (!x509) return CWOLFSSL_HOST_UNAVAILABLE;
    int match = host_is_ip ? wolfSSL_X509_check_ip_asc(x509, host, 0) : wolfSSL_X509_check_host(x509, host, strlen(host), 0, NULL);
    wolfSSL_X509_free(x509);
    if (match == WOLFSSL_SUCCESS) return 0;
    return host_is_ip ? IPADDR_MISMATCH : DOMAIN_NAME_MISMATCH;
}

// The signer wolfSSL verified a presented certificate's signature with: the DER of the certificate
// the manager's Signer was made from (NULL when none was recorded).
typedef struct signer_ref {
    const uint8_t *der;
    size_t length;
} signer_ref;

// The path is read from the signers (signer_ref), which needs the DER each Signer keeps.
#ifndef WOLFSSL_SIGNER_DER_CERT
#error "CWolfSSLBridge reads the validated path from Signer.derCert, which needs wolfSSL built with WOLFSSL_SIGNER_DER_CERT (Debian's --enable-distro defines it)"
#endif

// wolfSSL_CertManagerVerifyBuffer of a presented certificate. With `signer` NULL (the bare loop) it is
// that call. Otherwise it is the same verification made through wc_ParseCert, so that the signer can
// be read before the DecodedCert is freed: CM_VerifyBuffer_ex (src/ssl.c) is InitDecodedCert,
// ParseCertRelative(CERT_TYPE, VERIFY, cm), a CRL check only when the manager has CRLs enabled and the
// verify callback only when one is set (neither is, on a manager of cwolfssl_verify's), then
// FreeDecodedCert; wc_ParseCert is ParseCertRelative and, on success, copies of the common name and an
// RSA key. ParseCertRelative (wolfcrypt/src/asn.c) looks the signer up (by authority key id, else by
// issuer name hash), confirms the signature with that Signer's key and leaves it in DecodedCert.ca:
// that Signer is the certificate wolfSSL validated this one with, and its derCert the DER AddCA made it
// from (src/ssl.c, WOLFSSL_SIGNER_DER_CERT). It lives in the manager, so the reference stays valid
// until the manager is freed.
static int verify_certificate(WOLFSSL_CERT_MANAGER *cm, const uint8_t *der, size_t length, signer_ref *signer) {
    if (!signer) return as_error(wolfSSL_CertManagerVerifyBuffer(cm, der, (long)length, WOLFSSL_FILETYPE_ASN1));
    DecodedCert cert;
    wc_InitDecodedCert(&cert, der, (word32)length, NULL);
    int ret = wc_ParseCert(&cert, CERT_TYPE, VERIFY, cm);
    if (ret == 0 && cert.ca && cert.ca->derCert) {
        signer->der = cert.ca->derCert->buffer;
        signer->length = cert.ca->derCert->length;
    }
    wc_FreeDecodedCert(&cert);
    return ret < 0 ? ret : 0;
}

// ---------------------------------------------------------------------------------------------
// The request's CRLs.
//
// wolfSSL verifies a CRL as it is loaded (wolfSSL_CertManagerLoadCRLBuffer -> BufferLoadCRL(...,
// VERIFY) -> ParseCRL, src/crl.c and wolfcrypt/src/asn.c): the CRL's signer must already be a CA of
// the manager (else ASN_CRL_NO_SIGNER_E), its signature must verify (ASN_CRL_CONFIRM_E) and its
// nextUpdate must not have passed (CRL_CERT_DATE_ERR, through wc_Time: the request's time); a CRL it
// cannot decode fails with the decoder's error. A CRL of an intermediate therefore cannot be loaded
// before that intermediate is a signer. wolfSSL's client meets this with its CRL I/O hook: when
// CheckCertCRL (src/crl.c) finds no CRL of a certificate's issuer, it calls the manager's CbCrlIO
// (by default EmbedCrlLookup, which fetches the certificate's CRL distribution point over HTTP)
// and looks again. Here the hook is the request's CRLs instead of the network
// (wolfSSL_CertManagerSetCRL_IOCb): each CRL not yet loaded is given to
// wolfSSL_CertManagerLoadCRLBuffer again, now that the chain's CAs verified so far are signers, as
// EmbedCrlLookup gives the CRL it fetched. Every CRL is offered once at the start (after the
// anchors), as an application loads its CRLs: one wolfSSL cannot decode fails the verification
// there, with wolfSSL's error, and is never ignored.

typedef struct crl_source {
    WOLFSSL_CERT_MANAGER *cm;
    const uint8_t *const *ders;
    const size_t *lengths;
    size_t count;
    // Per CRL: 1 loaded, 0 not offered yet, else the error of the last offer.
    int *state;
} crl_source;

// The CRLs of the request running on this thread (the hook has no context argument).
static __thread crl_source *current_crls;

// Whether a CRL that failed to load with `error` may load later, once more CAs are signers.
static int crl_may_load_later(int error) { return error == 0 || error == ASN_CRL_NO_SIGNER_E; }

static void offer_crls(crl_source *source) {
    for (size_t i = 0; i < source->count; i++) {
        if (source->state[i] == 1 || !crl_may_load_later(source->state[i])) continue;
        int ret = source->lengths[i] == 0 || source->lengths[i] > 0x7fffffff ? BUFFER_E
            : as_error(wolfSSL_CertManagerLoadCRLBuffer(source->cm, source->ders[i], (long)source->lengths[i], WOLFSSL_FILETYPE_ASN1));
        source->state[i] = ret == 0 ? 1 : ret;
    }
}

// The manager's CbCrlIO: the request's CRLs offered again; 0 makes CheckCertCRL look again.
static int request_crl_lookup(WOLFSSL_CRL *crl, const char *url, int url_length) {
    (void)crl; (void)url; (void)url_length;
    if (current_crls) offer_crls(current_crls);
    return 0;
}

// Enables CRL checking on `cm` as a client does with WOLFSSL_CRL_CHECKALL (every presented
// certificate, not only the leaf: ProcessPeerCerts' crlCheckAll), the request's CRLs as its I/O hook,
// and offers every CRL once. 0, or the error of the first CRL wolfSSL cannot decode (logged).
static int enable_crls(WOLFSSL_CERT_MANAGER *cm, crl_source *source, cwolfssl_outcome *outcome) {
    int ret = as_error(wolfSSL_CertManagerEnableCRL(cm, WOLFSSL_CRL_CHECKALL));
    if (ret == 0) ret = as_error(wolfSSL_CertManagerSetCRL_IOCb(cm, request_crl_lookup));
    if (ret != 0) {
        if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_INTERNAL, -1);
        return ret;
    }
    source->cm = cm;
    offer_crls(source);
    int failed = 0;
    for (size_t i = 0; i < source->count; i++) {
        int error = source->state[i];
        if (error == 1 || crl_may_load_later(error) || error == ASN_CRL_CONFIRM_E || error == CRL_CERT_DATE_ERR) continue;
        if (outcome) log_error(outcome, error, CWOLFSSL_STAGE_CRL_LOAD, (int)i);
        if (!failed) failed = error;
    }
    return failed;
}

// After a rejection: the CRLs wolfSSL never loaded, with why (they explain a CRL_MISSING).
static void log_unloaded_crls(const crl_source *source, cwolfssl_outcome *outcome) {
    for (size_t i = 0; i < source->count; i++) {
        int error = source->state[i];
        if (error != 1 && error != 0 && (crl_may_load_later(error) || error == ASN_CRL_CONFIRM_E || error == CRL_CERT_DATE_ERR))
            log_error(outcome, error, CWOLFSSL_STAGE_CRL_LOAD, (int)i);
    }
}

// wolfSSL_CertManagerCheckCRL of a presented certificate (0 when CRLs are not enabled).
static int check_crl(WOLFSSL_CERT_MANAGER *cm, const crl_source *source, const uint8_t *der, size_t length) {
    if (!source) return 0;
    return as_error(wolfSSL_CertManagerCheckCRL(cm, (byte *)der, (int)length));
}

// The steps of one verification, shared by cwolfssl_verify and the bare loop. `outcome` may be NULL
// (the loop): then the first error ends the verification. Returns 0 when trusted. `cas` receives
// which presented certificates became signers; `certs` holds the presented certificates decoded
// (released by the caller); `signers`, when not NULL, receives for each presented certificate that
// verified the signer wolfSSL verified it with (see verify_certificate).
static int verify_with(WOLFSSL_CERT_MANAGER *cm, int *anchor_loaded,
                       const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       crl_source *crls,
                       const char *host, int host_is_ip, int any_purpose,
                       int *cas, decoded *certs, signer_ref *signers, cwolfssl_outcome *outcome) {
    int failed = 0;
    // Anchors as a client application loads them: wolfSSL_CertManagerLoadCABuffer runs
    // wolfSSL_CTX_load_verify_buffer on a temporary context (src/ssl.c), ProcessBuffer -> AddCA(cm,
    // der, WOLFSSL_USER_CA, verify), where verify is NO_VERIFY in Debian's build (a new context's mode
    // is SSL_VERIFY_NONE under OPENSSL_COMPATIBLE_DEFAULTS): an anchor's validity and cA bit are not
    // checked; one wolfSSL cannot decode is not loaded.
    for (size_t i = 0; i < anchor_count; i++) {
        int ret = anchor_lengths[i] > 0x7fffffff ? BUFFER_E
            : as_error(wolfSSL_CertManagerLoadCABuffer(cm, anchors[i], (long)anchor_lengths[i], WOLFSSL_FILETYPE_ASN1));
        if (anchor_loaded) anchor_loaded[i] = ret == 0;
        if (ret != 0 && outcome) log_error(outcome, ret, CWOLFSSL_STAGE_ANCHOR, (int)i);
    }
    if (crls) {
        int ret = enable_crls(cm, crls, outcome);
        if (ret != 0) return ret;
    }
    int index = -1;
    int ret = message_error(chain_lengths, chain_count, &index);
    if (ret != 0) {
        if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_MESSAGE, index);
        return ret;
    }
    for (size_t i = 0; i < chain_count; i++) decode(&certs[i], chain[i], chain_lengths[i]);
    // "check certificate up to peer's first": from the last presented certificate to the second.
    for (size_t k = chain_count; k > 1; k--) {
        size_t i = k - 1;
        ret = verify_certificate(cm, chain[i], chain_lengths[i], signers ? &signers[i] : NULL);
        int is_ca = certs[i].parsed && certs[i].cert.isCA;
        // crlCheckAll: a chain certificate that verified is checked against the CRLs before it may
        // become a signer ("Doing Non Leaf CRL check", ProcessPeerCerts); a failure keeps it out.
        if (ret == 0) {
            ret = check_crl(cm, crls, chain[i], chain_lengths[i]);
            if (ret != 0) {
                if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_CRL_CHECK, (int)i);
                if (!failed) failed = ret;
                if (!outcome) return ret;
                continue;
            }
        }
        // WOLFSSL_ALT_CERT_CHAINS (defined in this build): a CA certificate that fails only for want
        // of a signer (ASN_NO_SIGNER_E, ASN_SELF_SIGNED_E) is skipped, neither an error nor added;
        // "the peer certificate [need only] validate to a trusted CA".
        if (ret != 0 && is_ca && (ret == ASN_NO_SIGNER_E || ret == ASN_SELF_SIGNED_E)) continue;
        if (ret == 0 && is_ca) {
            // AddCA(..., WOLFSSL_CHAIN_CA, NO_VERIFY) (src/ssl.c): a chain CA that is not self-signed
            // (wolfSSL's selfSigned: issuer and subject name hashes equal) must assert keyCertSign
            // (ALLOW_INVALID_CERTSIGN is not defined); extKeyUsage is 0 without a keyUsage extension,
            // so an intermediate without one is refused as well (NOT_CA_ERROR).
            if (!certs[i].cert.selfSigned && (certs[i].cert.extKeyUsage & KEYUSE_KEY_CERT_SIGN) == 0) {
                ret = NOT_CA_ERROR;
                if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_ADD_CA, (int)i);
            } else {
                // Added as the CA loader adds it; AlreadySigner (the same subject key id) keeps the
                // signer the manager has, as ProcessPeerCerts' alreadySigner does.
                ret = as_error(wolfSSL_CertManagerLoadCABuffer(cm, chain[i], (long)chain_lengths[i], WOLFSSL_FILETYPE_ASN1));
                if (ret == 0) cas[i] = 1;
                else if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_ADD_CA, (int)i);
            }
        } else if (ret != 0) {
            if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_VERIFY, (int)i);
        }
        // ProcessPeerCerts keeps the first such error (args->lastErr) and goes on; it fails the
        // handshake at the end even when the leaf verifies.
        if (ret != 0) {
            if (!failed) failed = ret;
            if (!outcome) return ret;
        }
    }
    ret = verify_certificate(cm, chain[0], chain_lengths[0], signers ? &signers[0] : NULL);
    if (ret == 0 && !certs[0].parsed) ret = ASN_PARSE_E;
    if (ret != 0) {
        if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_VERIFY, 0);
        return ret;
    }
    // "Doing Leaf CRL check" (ProcessPeerCerts).
    ret = check_crl(cm, crls, chain[0], chain_lengths[0]);
    if (ret != 0) {
        if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_CRL_CHECK, 0);
        return ret;
    }
    if (!any_purpose) {
        // ProcessPeerCerts on the client side (src/internal.c): an extended key usage extension must
        // allow serverAuth or anyExtendedKeyUsage (EXTKEYUSE_AUTH_E); a key usage extension must
        // assert digitalSignature for the (EC)DHE suites with RSA or ECDSA signatures that wolfSSL's
        // client offers first (KEYUSE_SIGNATURE_E).
        const DecodedCert *leaf = &certs[0].cert;
        if (leaf->extExtKeyUsageSet && (leaf->extExtKeyUsage & (EXTKEYUSE_ANY | EXTKEYUSE_SERVER_AUTH)) == 0) {
            if (!outcome) return EXTKEYUSE_AUTH_E;
            log_error(outcome, EXTKEYUSE_AUTH_E, CWOLFSSL_STAGE_PURPOSE, 0);
            failed = EXTKEYUSE_AUTH_E;
        }
        if (leaf->extKeyUsageSet && (leaf->extKeyUsage & KEYUSE_DIGITAL_SIG) == 0) {
            if (!outcome) return KEYUSE_SIGNATURE_E;
            log_error(outcome, KEYUSE_SIGNATURE_E, CWOLFSSL_STAGE_PURPOSE, 0);
            failed = KEYUSE_SIGNATURE_E;
        }
    }
    if (host) {
        ret = check_host(chain[0], chain_lengths[0], host, host_is_ip);
        if (ret != 0) {
            if (outcome) log_error(outcome, ret, CWOLFSSL_STAGE_HOST, 0);
            return ret;
        }
    }
    return failed;
}

static int same_der(const uint8_t *a, size_t a_length, const uint8_t *b, size_t b_length) {
    return a_length == b_length && memcmp(a, b, a_length) == 0;
}

// The path of a trusted verdict: the one wolfSSL validated, read from the signers it verified each
// certificate with (verify_certificate), not rebuilt. From the leaf, each step is the certificate the
// current one's signer was made from: a loaded anchor (the path ends there), else the presented
// certificate that became that signer; the path also ends at a presented certificate that is itself a
// loaded anchor (the leaf, when it is one). A presented signer was loaded only after it verified, so
// its own signer was recorded then and the walk goes strictly up the order in which signers were
// loaded. Of byte-identical presented copies the one loaded first (the highest index: the chain is
// verified from its end) is the one AddCA made the Signer from; a later copy is AlreadySigner.
static int signer_path(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count, const int *anchor_loaded,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const int *cas, const signer_ref *signers, cwolfssl_outcome *outcome) {
    outcome->path_count = 1;
    outcome->path[0] = 0;
    size_t current = 0;
    while (outcome->path_count < CWOLFSSL_MAX_PATH) {
        for (size_t a = 0; a < anchor_count; a++) {
            if (anchor_loaded[a] && same_der(anchors[a], anchor_lengths[a], chain[current], chain_lengths[current])) return 0;
        }
        const signer_ref *signer = &signers[current];
        if (!signer->der) break;
        for (size_t a = 0; a < anchor_count; a++) {
            if (anchor_loaded[a] && same_der(anchors[a], anchor_lengths[a], signer->der, signer->length)) {
                outcome->path[outcome->path_count++] = -1 - (int)a;
                return 0;
            }
        }
        size_t next = 0;
        for (size_t i = chain_count; i > 1 && !next; i--) {
            if (cas[i - 1] && same_der(chain[i - 1], chain_lengths[i - 1], signer->der, signer->length)) next = i - 1;
        }
        if (!next) break;
        outcome->path[outcome->path_count++] = (int)next;
        current = next;
    }
    outcome->path_count = 0;
    return CWOLFSSL_PATH_UNRESOLVED;
}

void cwolfssl_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int check_crls,
                     const char *host, int host_is_ip, int64_t unix_time, int any_purpose,
                     cwolfssl_outcome *outcome) {
    memset(outcome, 0, sizeof *outcome);
    int init = cwolfssl_initialize();
    if (init != 0 || chain_count == 0) {
        log_error(outcome, init != 0 ? init : BAD_FUNC_ARG, CWOLFSSL_STAGE_INTERNAL, -1);
        return;
    }
    time_scope scope = time_enter(unix_time);
    WOLFSSL_CERT_MANAGER *cm = wolfSSL_CertManagerNew();
    int *cas = calloc(chain_count + anchor_count + 1, sizeof(int));
    decoded *certs = calloc(chain_count, sizeof(decoded));
    signer_ref *signers = calloc(chain_count, sizeof(signer_ref));
    int *crl_state = calloc(crl_count + 1, sizeof(int));
    crl_source source = { NULL, crls, crl_lengths, crl_count, crl_state };
    crl_source *previous_crls = current_crls;
    if (!cm || !cas || !certs || !signers || !crl_state) {
        log_error(outcome, MEMORY_E, CWOLFSSL_STAGE_INTERNAL, -1);
    } else {
        int *anchor_loaded = cas + chain_count;
        current_crls = check_crls ? &source : NULL;
        int ret = verify_with(cm, anchor_loaded, anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count,
                              check_crls ? &source : NULL, host, host_is_ip, any_purpose, cas, certs, signers, outcome);
        current_crls = previous_crls;
        if (ret != 0 && check_crls) log_unloaded_crls(&source, outcome);
        // Anchors that could not be loaded may be logged beside a trusted verdict: no part of it.
        // The signers live in `cm`: the path is read before it is freed.
        if (ret == 0) {
            int path = signer_path(anchors, anchor_lengths, anchor_count, anchor_loaded, chain, chain_lengths, chain_count, cas, signers, outcome);
            if (path == 0) outcome->trusted = 1;
            else log_error(outcome, path, CWOLFSSL_STAGE_PATH, 0);
        }
        for (size_t i = 0; i < chain_count; i++) release(&certs[i]);
    }
    free(crl_state);
    free(signers);
    free(certs);
    free(cas);
    if (cm) wolfSSL_CertManagerFree(cm);
    time_leave(scope);
}

uint64_t cwolfssl_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const char *host, int host_is_ip, int64_t unix_time, uint64_t iterations) {
    if (cwolfssl_initialize() != 0 || chain_count == 0) return 0;
    int *cas = calloc(chain_count, sizeof(int));
    decoded *certs = calloc(chain_count, sizeof(decoded));
    if (!cas || !certs) {
        free(cas);
        free(certs);
        return 0;
    }
    time_scope scope = time_enter(unix_time);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int ok = 1;
    for (uint64_t k = 0; k < iterations && ok; k++) {
        WOLFSSL_CERT_MANAGER *cm = wolfSSL_CertManagerNew();
        if (!cm) { ok = 0; break; }
        memset(cas, 0, sizeof(int) * chain_count);
        if (verify_with(cm, NULL, anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count,
                        NULL, host, host_is_ip, 0, cas, certs, NULL, NULL) != 0) ok = 0;
        for (size_t i = 0; i < chain_count; i++) release(&certs[i]);
        wolfSSL_CertManagerFree(cm);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    time_leave(scope);
    free(cas);
    free(certs);
    if (!ok) return 0;
    uint64_t ns = (uint64_t)(end.tv_sec - start.tv_sec) * 1000000000u + (uint64_t)(end.tv_nsec - start.tv_nsec);
    return ns ? ns : 1;
}
