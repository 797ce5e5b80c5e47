// One NSS verification, asked as NSS's own TLS client asks it (see cnss_bridge.h). Every NSS object
// made here is released before returning, so that a reset (NSS_Shutdown) finds nothing in use.
#include "cnss_bridge.h"

#include <nss.h>
#include <cert.h>
#include <certt.h>
#include <secitem.h>
#include <secerr.h>
#include <sslerr.h>
#include <prerror.h>
#include <prinit.h>
#include <time.h>

int cnss_initialize(void) {
    if (NSS_IsInitialized()) return 0;
    if (NSS_NoDB_Init(NULL) != SECSuccess) return PORT_GetError() ? PORT_GetError() : -1;
    return 0;
}

int cnss_reset(void) {
    if (NSS_IsInitialized() && NSS_Shutdown() != SECSuccess) {
        int error = PORT_GetError();
        return error ? error : -1;
    }
    return cnss_initialize();
}

// Exported by libnss3 (symbol version NSS_3.2, lib/nss/nss.def) but declared only in NSS's private
// certdb headers: decodes a certificate without entering it in any store.
extern CERTCertificate *__CERT_DecodeDERCertificate(SECItem *derSignedCert, PRBool copyDER, char *nickname);

int cnss_decode(const uint8_t *der, size_t length) {
    SECItem item = { siBuffer, (unsigned char *)der, (unsigned int)length };
    if (length > 0xFFFFFFFFu) return SEC_ERROR_BAD_DER;
    CERTCertificate *cert = __CERT_DecodeDERCertificate(&item, PR_TRUE, NULL);
    if (!cert) {
        int error = PORT_GetError();
        return error ? error : SEC_ERROR_BAD_DER;
    }
    CERT_DestroyCertificate(cert);
    return 0;
}

// CERT_VerifyCertName fails with SSL_ERROR_BAD_CERT_DOMAIN, an error of libssl3's table, which
// NSPR knows only once libssl3 is initialised (ssl_InitializePRErrorTable), and nothing here
// initialises libssl3. Its name and text (lib/ssl/SSLerrs.h) are given here.
static const char bad_cert_domain_text[] = "Unable to communicate securely with peer: requested domain name does not match the server's certificate.";

const char *cnss_error_name(int code) {
    const char *name = PR_ErrorToName(code);
    if (!name && code == SSL_ERROR_BAD_CERT_DOMAIN) return "SSL_ERROR_BAD_CERT_DOMAIN";
    return name;
}

// PR_ErrorToString formats a code that no installed error table knows into one static 25-byte
// buffer with strcpy and strcat, without a lock (pr/src/misc/prerrortable.c): two threads doing so
// at once write past its end, which glibc's fortified strcat stops with "*** buffer overflow
// detected ***" and an abort. So NSPR is asked only for codes a table knows (PR_ErrorToName finds
// their names without any buffer); for the others the caller says the code itself.
const char *cnss_error_text(int code) {
    if (PR_ErrorToName(code)) return PR_ErrorToString(code, PR_LANGUAGE_I_DEFAULT);
    if (code == SSL_ERROR_BAD_CERT_DOMAIN) return bad_cert_domain_text;
    return NULL;
}
int cnss_error_class(int code) {
    switch (code) {
    case SEC_ERROR_EXPIRED_CERTIFICATE: case SEC_ERROR_EXPIRED_ISSUER_CERTIFICATE: case SEC_ERROR_INVALID_TIME:
        return 1;
    case SEC_ERROR_UNKNOWN_ISSUER: case SEC_ERROR_UNTRUSTED_ISSUER: case SEC_ERROR_UNTRUSTED_CERT:
        return 2;
    case SEC_ERROR_CA_CERT_INVALID:
        return 3;
    case SEC_ERROR_PATH_LEN_CONSTRAINT_INVALID:
        return 4;
    case SEC_ERROR_BAD_SIGNATURE:
        return 5;
    case SEC_ERROR_INADEQUATE_KEY_USAGE: case SEC_ERROR_INADEQUATE_CERT_TYPE:
        return 6;
    case SEC_ERROR_REVOKED_CERTIFICATE:
        return 7;
    case SEC_ERROR_BAD_DER: case SEC_ERROR_EXTENSION_VALUE_INVALID: case SEC_ERROR_INPUT_LEN:
    case SEC_ERROR_CRL_INVALID: case SEC_ERROR_CRL_V1_CRITICAL_EXTENSION: case SEC_ERROR_CRL_UNKNOWN_CRITICAL_EXTENSION:
        return 8;
    case SSL_ERROR_BAD_CERT_DOMAIN:
        return 9;
    default:
        return 0;
    }
}

const char *cnss_version(void) { return NSS_GetVersion(); }

static int validity_at(const CERTCertificate *cert, PRTime time) {
    if (!cert) return 0;
    switch (CERT_CheckCertValidTimes(cert, time, PR_FALSE)) {
    case secCertTimeExpired: return 1;
    case secCertTimeNotValidYet: return 2;
    default: return 0;
    }
}

static int is_time_error(int error) {
    return error == SEC_ERROR_EXPIRED_CERTIFICATE || error == SEC_ERROR_EXPIRED_ISSUER_CERTIFICATE
        || error == SEC_ERROR_INVALID_TIME;
}

// Imports `count` certificates as temporary certificates into `certs`; on failure releases what it
// imported and returns the failing index (or -1 on success).
static int import_all(const uint8_t *const *ders, const size_t *lengths, size_t count, CERTCertificate **certs, int *error) {
    CERTCertDBHandle *db = CERT_GetDefaultCertDB();
    for (size_t i = 0; i < count; i++) {
        SECItem item = { siBuffer, (unsigned char *)ders[i], (unsigned int)lengths[i] };
        certs[i] = lengths[i] > 0xFFFFFFFFu ? NULL : CERT_NewTempCertificate(db, &item, NULL, PR_FALSE, PR_TRUE);
        if (!certs[i]) {
            *error = PORT_GetError() ? PORT_GetError() : SEC_ERROR_BAD_DER;
            for (size_t j = 0; j < i; j++) CERT_DestroyCertificate(certs[j]);
            return (int)i;
        }
    }
    return -1;
}

static void release_all(CERTCertificate **certs, size_t count) {
    for (size_t i = 0; i < count; i++) if (certs[i]) CERT_DestroyCertificate(certs[i]);
}

// The verification proper, on imported certificates. `log` may be NULL.
static SECStatus verify_imported(CERTCertificate *leaf, CERTCertificate **anchors, size_t anchor_count,
                                 PRTime time, int usage_any, int revocation_mode, CERTVerifyLog *log, CERTCertList **path, CERTCertificate **anchor, int *internal) {
    CERTCertList *anchor_list = CERT_NewCertList();
    if (!anchor_list) { *internal = 1; return SECFailure; }
    for (size_t i = 0; i < anchor_count; i++) {
        // The list holds its own reference to each anchor.
        if (CERT_AddCertToListTail(anchor_list, CERT_DupCertificate(anchors[i])) != SECSuccess) {
            CERT_DestroyCertList(anchor_list);
            *internal = 1;
            return SECFailure;
        }
    }
    // Revocation: by the CRL method alone, never through the network, with one of NSS's own policies
    // (lib/certhigh/certvfypkix.c, NSS 3.87.1), or with no method at all.
    // - CNSS_REVOCATION_SOFT: CERT_GetClassicOCSPDisabledPolicy(), the flags NSS's own classic
    //   verification (CERT_VerifyCert through libpkix) uses: CRL method tested from local
    //   information only (CERT_REV_M_FORBID_NETWORK_FETCHING), a certificate without a CRL of its
    //   issuer passes (CERT_REV_M_SKIP_TEST_ON_MISSING_SOURCE | CERT_REV_M_IGNORE_MISSING_FRESH_INFO,
    //   both 0), OCSP not tested.
    // - CNSS_REVOCATION_HARD: CERT_GetPKIXVerifyNistRevocationPolicy(), NSS's policy for NIST's
    //   rules (CERT_REV_M_FAIL_ON_MISSING_FRESH_INFO | CERT_REV_M_REQUIRE_INFO_ON_MISSING_SOURCE:
    //   every certificate of the chain needs a CRL of its issuer), with network fetching forbidden,
    //   so that the verdict rests on the request's CRLs alone (pkix_RevocationChecker_Check then fails
    //   a certificate with no local information, lib/libpkix/pkix/checker/pkix_revocationchecker.c).
    // - CNSS_REVOCATION_NONE: no method tested (CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD): the
    //   request gives neither CRLs nor a mode, and a verdict must not depend on a responder.
    // OCSP is never tested: NSS judges an OCSP response's freshness only against the clock (see
    // NSSBackend.features).
    PRUint64 none_methods[cert_revocation_method_count] = { CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD | CERT_REV_M_FORBID_NETWORK_FETCHING,
                                                            CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD | CERT_REV_M_FORBID_NETWORK_FETCHING };
    PRUint64 none_chain_methods[cert_revocation_method_count] = { CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD | CERT_REV_M_FORBID_NETWORK_FETCHING,
                                                                  CERT_REV_M_DO_NOT_TEST_USING_THIS_METHOD | CERT_REV_M_FORBID_NETWORK_FETCHING };
    PRUint64 hard_leaf_methods[cert_revocation_method_count] = { 0, 0 };
    PRUint64 hard_chain_methods[cert_revocation_method_count] = { 0, 0 };
    CERTRevocationFlags revocation;
    const CERTRevocationFlags *policy = NULL;
    if (revocation_mode == CNSS_REVOCATION_SOFT) {
        policy = CERT_GetClassicOCSPDisabledPolicy();
    } else if (revocation_mode == CNSS_REVOCATION_HARD) {
        const CERTRevocationFlags *nist = CERT_GetPKIXVerifyNistRevocationPolicy();
        if (nist) {
            for (PRUint32 i = 0; i < nist->leafTests.number_of_defined_methods && i < cert_revocation_method_count; i++)
                hard_leaf_methods[i] = nist->leafTests.cert_rev_flags_per_method[i] | CERT_REV_M_FORBID_NETWORK_FETCHING;
            for (PRUint32 i = 0; i < nist->chainTests.number_of_defined_methods && i < cert_revocation_method_count; i++)
                hard_chain_methods[i] = nist->chainTests.cert_rev_flags_per_method[i] | CERT_REV_M_FORBID_NETWORK_FETCHING;
            revocation = *nist;
            revocation.leafTests.number_of_defined_methods = cert_revocation_method_count;
            revocation.leafTests.cert_rev_flags_per_method = hard_leaf_methods;
            revocation.chainTests.number_of_defined_methods = cert_revocation_method_count;
            revocation.chainTests.cert_rev_flags_per_method = hard_chain_methods;
            policy = &revocation;
        }
    } else {
        revocation.leafTests.number_of_defined_methods = cert_revocation_method_count;
        revocation.leafTests.cert_rev_flags_per_method = none_methods;
        revocation.leafTests.number_of_preferred_methods = 0;
        revocation.leafTests.preferred_methods = NULL;
        revocation.leafTests.cert_rev_method_independent_flags = CERT_REV_MI_NO_OVERALL_INFO_REQUIREMENT;
        revocation.chainTests.number_of_defined_methods = cert_revocation_method_count;
        revocation.chainTests.cert_rev_flags_per_method = none_chain_methods;
        revocation.chainTests.number_of_preferred_methods = 0;
        revocation.chainTests.preferred_methods = NULL;
        revocation.chainTests.cert_rev_method_independent_flags = CERT_REV_MI_NO_OVERALL_INFO_REQUIREMENT;
        policy = &revocation;
    }
    if (!policy) {
        CERT_DestroyCertList(anchor_list);
        *internal = 1;
        return SECFailure;
    }

    CERTValInParam in[6];
    int n = 0;
    in[n].type = cert_pi_date; in[n].value.scalar.time = time; n++;
    in[n].type = cert_pi_trustAnchors; in[n].value.pointer.chain = anchor_list; n++;
    in[n].type = cert_pi_useOnlyTrustAnchors; in[n].value.scalar.b = PR_TRUE; n++;
    in[n].type = cert_pi_revocationFlags; in[n].value.pointer.revocation = (CERTRevocationFlags *)policy; n++;
    in[n].type = cert_pi_useAIACertFetch; in[n].value.scalar.b = PR_FALSE; n++;
    in[n].type = cert_pi_end; n++;

    CERTValOutParam out[4];
    int m = 0;
    int path_at = -1, anchor_at = -1;
    if (path) { path_at = m; out[m].type = cert_po_certList; out[m].value.pointer.chain = NULL; m++; }
    if (anchor) { anchor_at = m; out[m].type = cert_po_trustAnchor; out[m].value.pointer.cert = NULL; m++; }
    if (log) { out[m].type = cert_po_errorLog; out[m].value.pointer.log = log; m++; }
    out[m].type = cert_po_end;

    SECCertificateUsage usage = usage_any ? certificateUsageCheckAllUsages : certificateUsageSSLServer;
    SECStatus status = CERT_PKIXVerifyCert(leaf, usage, in, out, NULL);
    if (path) *path = out[path_at].value.pointer.chain;
    if (anchor) *anchor = out[anchor_at].value.pointer.cert;
    CERT_DestroyCertList(anchor_list);
    return status;
}

// Gives `count` CRLs to NSS's process-wide CRL cache (CERT_CacheCRL, lib/certdb/crl.c): each is
// decoded there (CERT_DecodeDERCrlWithFlags, entries skipped) and added, undecoded entries and
// unverified, to the cache of its issuer's name; the signature is verified, at the validation time,
// when a verification first consults it (CachedCrl_Verify). The cache keeps a pointer to each
// SECItem in `items` (and so to the caller's bytes) until CERT_UncacheCRL is given the same SECItem.
// Returns the index of the first CRL NSS would not take, with its error, after removing those it
// took; -1 when all were taken.
static int cache_crls(const uint8_t *const *crls, const size_t *lengths, size_t count, SECItem *items, int *error) {
    CERTCertDBHandle *db = CERT_GetDefaultCertDB();
    for (size_t i = 0; i < count; i++) {
        items[i] = (SECItem){ siBuffer, (unsigned char *)crls[i], (unsigned int)lengths[i] };
        PORT_SetError(0);
        if (lengths[i] > 0xFFFFFFFFu || CERT_CacheCRL(db, &items[i]) != SECSuccess) {
            *error = PORT_GetError() ? PORT_GetError() : SEC_ERROR_CRL_INVALID;
            for (size_t j = 0; j < i; j++) CERT_UncacheCRL(db, &items[j]);
            return (int)i;
        }
    }
    return -1;
}

static void uncache_crls(SECItem *items, size_t count) {
    CERTCertDBHandle *db = CERT_GetDefaultCertDB();
    for (size_t i = 0; i < count; i++) CERT_UncacheCRL(db, &items[i]);
}

void cnss_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                 const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                 const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count, int revocation,
                 const char *host, int64_t time_us, int usage_any,
                 cnss_outcome *outcome, cnss_path_sink sink, void *sink_context) {
    *outcome = (cnss_outcome){ 0 };
    // NSPR's error is per thread and outlives the call that set it, and libpkix records it as the
    // cause of any failure of an NSS function that sets none (pkix_Throw takes PORT_GetError): left
    // alone, a verdict could name the error of whatever this thread did before. Cleared here, such a
    // failure names no stale error (cert_PkixErrorToNssCode then gives SEC_ERROR_LIBPKIX_INTERNAL).
    PORT_SetError(0);
    if (!NSS_IsInitialized() || chain_count == 0) { outcome->step = 4; outcome->error = SEC_ERROR_NOT_INITIALIZED; return; }
    CERTCertificate **anchor_certs = PORT_ZNewArray(CERTCertificate *, anchor_count + 1);
    CERTCertificate **chain_certs = PORT_ZNewArray(CERTCertificate *, chain_count);
    SECItem *crl_items = PORT_ZNewArray(SECItem, crl_count + 1);
    if (!anchor_certs || !chain_certs || !crl_items) {
        PORT_Free(anchor_certs); PORT_Free(chain_certs); PORT_Free(crl_items);
        outcome->step = 4; outcome->error = SEC_ERROR_NO_MEMORY;
        return;
    }
    int error = 0;
    int failed = import_all(anchors, anchor_lengths, anchor_count, anchor_certs, &error);
    if (failed >= 0) {
        outcome->step = 1; outcome->error = error; outcome->failed_index = failed;
        goto done;
    }
    failed = import_all(chain, chain_lengths, chain_count, chain_certs, &error);
    if (failed >= 0) {
        release_all(anchor_certs, anchor_count);
        outcome->step = 1; outcome->error = error; outcome->failed_index = (int)anchor_count + failed;
        goto done;
    }
    // The CRLs after the certificates, as an application gives NSS its CRLs before it verifies.
    failed = cache_crls(crls, crl_lengths, crl_count, crl_items, &error);
    if (failed >= 0) {
        release_all(chain_certs, chain_count);
        release_all(anchor_certs, anchor_count);
        outcome->step = 5; outcome->error = error; outcome->failed_index = failed;
        goto done;
    }

    PLArenaPool *arena = PORT_NewArena(DER_DEFAULT_CHUNKSIZE);
    CERTVerifyLog log = { arena, 0, NULL, NULL };
    CERTCertList *path = NULL;
    CERTCertificate *anchor = NULL;
    int internal = 0;
    PORT_SetError(0);
    SECStatus status = arena ? verify_imported(chain_certs[0], anchor_certs, anchor_count, (PRTime)time_us, usage_any, revocation, &log, &path, &anchor, &internal) : SECFailure;
    if (!arena || internal) {
        outcome->step = 4; outcome->error = SEC_ERROR_NO_MEMORY;
    } else if (status != SECSuccess) {
        outcome->step = 2;
        outcome->error = PORT_GetError() ? PORT_GetError() : SEC_ERROR_LIBRARY_FAILURE;
        if (is_time_error(outcome->error)) outcome->leaf_validity = validity_at(chain_certs[0], (PRTime)time_us);
    } else if (host && (PORT_SetError(0), CERT_VerifyCertName(chain_certs[0], host)) != SECSuccess) {
        outcome->step = 3;
        outcome->error = PORT_GetError() ? PORT_GetError() : SSL_ERROR_BAD_CERT_DOMAIN;
    } else {
        outcome->trusted = 1;
        if (path && sink) {
            CERTCertificate *last = NULL;
            for (CERTCertListNode *node = CERT_LIST_HEAD(path); !CERT_LIST_END(node, path); node = CERT_LIST_NEXT(node)) {
                sink(sink_context, node->cert->derCert.data, node->cert->derCert.len);
                last = node->cert;
            }
            // libpkix's chain may end below the anchor it chose (cert_po_trustAnchor): the path ends at it.
            if (anchor && (!last || !SECITEM_ItemsAreEqual(&last->derCert, &anchor->derCert))) {
                sink(sink_context, anchor->derCert.data, anchor->derCert.len);
            }
        }
    }
    if (arena) {
        for (CERTVerifyLogNode *node = log.head; node; node = node->next) {
            if (outcome->log_count < CNSS_MAX_LOG) {
                int i = outcome->log_count++;
                outcome->log_errors[i] = (int)node->error;
                outcome->log_depths[i] = (int)node->depth;
                outcome->log_validity[i] = is_time_error((int)node->error) ? validity_at(node->cert, (PRTime)time_us) : 0;
            }
            if (node->cert) CERT_DestroyCertificate(node->cert);
        }
        PORT_FreeArena(arena, PR_FALSE);
    }
    if (path) CERT_DestroyCertList(path);
    if (anchor) CERT_DestroyCertificate(anchor);
    // Before the certificates are released: nothing of this request stays in the CRL cache.
    uncache_crls(crl_items, crl_count);
    release_all(chain_certs, chain_count);
    release_all(anchor_certs, anchor_count);
done:
    PORT_Free(anchor_certs);
    PORT_Free(chain_certs);
    PORT_Free(crl_items);
}

uint64_t cnss_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                   const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                   const char *host, int64_t time_us, uint64_t iterations) {
    if (cnss_initialize() != 0 || chain_count == 0) return 0;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int ok = 1;
    for (uint64_t k = 0; k < iterations && ok; k++) {
        cnss_outcome outcome;
        cnss_verify(anchors, anchor_lengths, anchor_count, chain, chain_lengths, chain_count, NULL, NULL, 0, CNSS_REVOCATION_NONE, host, time_us, 0, &outcome, NULL, NULL);
        ok = outcome.trusted == 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (!ok) return 0;
    uint64_t ns = (uint64_t)(end.tv_sec - start.tv_sec) * 1000000000u + (uint64_t)(end.tv_nsec - start.tv_nsec);
    return ns ? ns : 1;
}
