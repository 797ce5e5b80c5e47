/*
 * The GnuTLS baseline: what GnuTLSBackend asks of libgnutls for one evaluation, as a plain C loop.
 *
 * Mirrors Sources/GnuTLSBackend: one trust list with the anchors, made once (GnuTLSTrustList); per
 * evaluation the presented chain imported with gnutls_x509_crt_import (GnuTLSCertificate) and verified
 * by gnutls_x509_trust_list_verify_crt2 with the back end's typed data and flags (GnuTLSEvaluator),
 * GnuTLS sorting the list itself, as a TLS client's gnutls_certificate_verify_peers has it do; a list
 * longer than the credentials' default verify depth (16, DEFAULT_MAX_VERIFY_DEPTH) is refused as
 * _gnutls_x509_cert_verify_peers (lib/cert-session.c) refuses it. It is also `trust-harness
 * fidelity`'s reference for the gnutls column: GnuTLS called the plain way.
 *
 * GnuTLS reads the time only through its process-wide time function. This file never sets it: the
 * caller runs the loop inside GnuTLSBackend.withValidationTime, so the baseline and the back end share
 * the one hook.
 */

#include "CBaselines.h"
#include "BaselineClock.h"

#include <arpa/inet.h>
#include <limits.h>
#include <stdlib.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

/* GnuTLSBackend.Settings.hardened, as GnuTLSEvaluator passes it: a DNS name never matches an IP
 * address, keys and signature hashes of at least 112-bit security. */
static const unsigned int verification_flags = GNUTLS_VERIFY_DO_NOT_ALLOW_IP_MATCHES
    | GNUTLS_PROFILE_TO_VFLAGS(GNUTLS_PROFILE_MEDIUM);

/* The credentials' default verify depth (gnutls_certificate_set_verify_limits). */
#define TH_GNUTLS_VERIFY_DEPTH 16

/* A new certificate imported from DER, or NULL. */
static gnutls_x509_crt_t import_der(const uint8_t *der, size_t length) {
    if (der == NULL || length == 0 || length > UINT_MAX) return NULL;
    gnutls_x509_crt_t certificate = NULL;
    if (gnutls_x509_crt_init(&certificate) != GNUTLS_E_SUCCESS) return NULL;
    /* GnuTLS copies the bytes and never writes through the datum. */
    gnutls_datum_t datum = { (unsigned char *)(uintptr_t)der, (unsigned int)length };
    if (gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_DER) < 0) {
        gnutls_x509_crt_deinit(certificate);
        return NULL;
    }
    return certificate;
}

static void chain_free(gnutls_x509_crt_t *certificates, size_t count) {
    for (size_t index = 0; index < count; index++) {
        if (certificates[index] != NULL) gnutls_x509_crt_deinit(certificates[index]);
        certificates[index] = NULL;
    }
}

/* 0, or TH_BASELINE_UNPARSEABLE with nothing left allocated. */
static int chain_import(const th_baseline_input *in, gnutls_x509_crt_t *certificates) {
    for (size_t index = 0; index < in->chain_count; index++) {
        certificates[index] = import_der(in->chain[index], in->chain_lengths[index]);
        if (certificates[index] == NULL) {
            chain_free(certificates, index);
            return TH_BASELINE_UNPARSEABLE;
        }
    }
    return 0;
}

static int run_loop(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns, int plain_client);

int th_gnutls_baseline_run(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns) {
    return run_loop(in, parse_each_time, iterations, elapsed_ns, 0);
}

int th_gnutls_plain_client_run(const th_baseline_input *in, uint64_t *elapsed_ns) {
    return run_loop(in, 1, 1, elapsed_ns, 1);
}

/* plain_client: as a plain GnuTLS client verifies the server's list with
 * gnutls_certificate_verify_peers3(session, hostname, &status) (lib/cert-session.c), what
 * gnutls_session_set_verify_cert, the manual's client, calls: the credentials' verify depth (16),
 * then gnutls_x509_trust_list_verify_crt2 with the host as GNUTLS_DT_DNS_HOSTNAME alone (no key
 * purpose: "In order to verify the purpose of the end-certificate ... use
 * gnutls_certificate_verify_peers()") and the flags of the NORMAL priority, GNUTLS_PROFILE_LOW. */
static int run_loop(const th_baseline_input *in, int parse_each_time, uint64_t iterations, uint64_t *elapsed_ns, int plain_client) {
    if (in == NULL || elapsed_ns == NULL || in->chain == NULL || in->chain_lengths == NULL || in->chain_count == 0
        || in->chain_count > UINT_MAX || in->anchor_count > UINT_MAX
        || (in->anchor_count > 0 && (in->anchors == NULL || in->anchor_lengths == NULL))) {
        return TH_BASELINE_BAD_INPUT;
    }
    *elapsed_ns = 0;

    gnutls_x509_crt_t *chain = (gnutls_x509_crt_t *)calloc(in->chain_count, sizeof *chain);
    gnutls_x509_crt_t *anchors = (gnutls_x509_crt_t *)calloc(in->anchor_count > 0 ? in->anchor_count : 1, sizeof *anchors);
    gnutls_x509_trust_list_t trust_list = NULL;
    /* GnuTLSEvaluator.withTypedData: the reference identity, if any, then the key purpose. */
    gnutls_typed_vdata_st data[2];
    unsigned char address[16];
    unsigned int data_count = 0;
    uint64_t start = 0;
    int result = TH_BASELINE_LIBRARY_FAILED;
    if (chain == NULL || anchors == NULL) goto done;
    if (gnutls_x509_trust_list_init(&trust_list, 0) != GNUTLS_E_SUCCESS) {
        trust_list = NULL;
        goto done;
    }
    for (size_t index = 0; index < in->anchor_count; index++) {
        anchors[index] = import_der(in->anchors[index], in->anchor_lengths[index]);
        if (anchors[index] == NULL) {
            chain_free(anchors, index);
            result = TH_BASELINE_UNPARSEABLE;
            goto done;
        }
    }
    if (in->anchor_count > 0) {
        /* Flags 0, as the back end: the list keeps every handle and frees them in deinit(list, 1). */
        int added = gnutls_x509_trust_list_add_cas(trust_list, anchors, (unsigned int)in->anchor_count, 0);
        if (added != (int)in->anchor_count) {
            if (added < 0) chain_free(anchors, in->anchor_count);
            goto done;
        }
    }

    if (in->crl_count > 0) {
        /* The CRLs, once, into the trust list (which frees them in deinit(list, 1)): verified
         * against the anchors as the back end's gnutls adds them (GNUTLS_TL_VERIFY_CRL, a CRL that
         * fails is skipped and freed here), unverified as a plain client's credentials load them. */
        if (in->crls == NULL || in->crl_lengths == NULL) { result = TH_BASELINE_BAD_INPUT; goto done; }
        /* (No CRL with checking asked changes nothing for GnuTLS: soft-fail.) */
        for (size_t index = 0; index < in->crl_count; index++) {
            gnutls_x509_crl_t crl = NULL;
            if (gnutls_x509_crl_init(&crl) != GNUTLS_E_SUCCESS) goto done;
            gnutls_datum_t datum = { (unsigned char *)(uintptr_t)in->crls[index], (unsigned int)in->crl_lengths[index] };
            if (in->crl_lengths[index] > UINT_MAX || gnutls_x509_crl_import(crl, &datum, GNUTLS_X509_FMT_DER) != GNUTLS_E_SUCCESS) {
                gnutls_x509_crl_deinit(crl);
                result = TH_BASELINE_UNPARSEABLE;
                goto done;
            }
            /* One at a time, so that the count added says whether this one was kept (no
             * GNUTLS_TL_NO_DUPLICATES, as the back end: every CRL is kept, none replaced). */
            int added = gnutls_x509_trust_list_add_crls(trust_list, &crl, 1, plain_client ? 0 : GNUTLS_TL_VERIFY_CRL, 0);
            if (added < 0) { gnutls_x509_crl_deinit(crl); goto done; }
            if (added == 0) gnutls_x509_crl_deinit(crl);
        }
    }

    if (in->host != NULL && plain_client) {
        data[data_count++] = (gnutls_typed_vdata_st){ GNUTLS_DT_DNS_HOSTNAME, (unsigned char *)(uintptr_t)in->host, 0 };
    } else if (in->host != NULL) {
        /* An address in text is checked as an address, as GnuTLSEvaluator passes an IP host
         * (GNUTLS_DT_IP_ADDRESS, 4 or 16 bytes); anything else as a DNS name. */
        if (inet_pton(AF_INET, in->host, address) == 1) {
            data[data_count++] = (gnutls_typed_vdata_st){ GNUTLS_DT_IP_ADDRESS, address, 4 };
        } else if (inet_pton(AF_INET6, in->host, address) == 1) {
            data[data_count++] = (gnutls_typed_vdata_st){ GNUTLS_DT_IP_ADDRESS, address, 16 };
        } else {
            data[data_count++] = (gnutls_typed_vdata_st){ GNUTLS_DT_DNS_HOSTNAME, (unsigned char *)(uintptr_t)in->host, 0 };
        }
    }
    if (!plain_client) {
        data[data_count++] = (gnutls_typed_vdata_st){ GNUTLS_DT_KEY_PURPOSE_OID, (unsigned char *)(uintptr_t)GNUTLS_KP_TLS_WWW_SERVER, 0 };
    }

    if (!parse_each_time) {
        result = chain_import(in, chain);
        if (result < 0) goto done;
    }
    result = 0;
    start = th_monotonic_ns();
    for (uint64_t iteration = 0; iteration < iterations; iteration++) {
        if (parse_each_time) {
            result = chain_import(in, chain);
            if (result < 0) break;
        }
        unsigned int status = 0;
        int verified = in->chain_count > TH_GNUTLS_VERIFY_DEPTH ? GNUTLS_E_CONSTRAINT_ERROR
            : gnutls_x509_trust_list_verify_crt2(trust_list, chain, (unsigned int)in->chain_count, data, data_count,
                                                 plain_client ? GNUTLS_PROFILE_TO_VFLAGS(GNUTLS_PROFILE_LOW) : verification_flags, &status, NULL);
        result = verified >= 0 && status == 0 ? 1 : 0;
        if (parse_each_time) chain_free(chain, in->chain_count);
    }
    *elapsed_ns = th_monotonic_ns() - start;
done:
    if (chain != NULL) chain_free(chain, in->chain_count);
    if (trust_list != NULL) gnutls_x509_trust_list_deinit(trust_list, 1);
    free(chain);
    free(anchors);
    return result;
}

int th_gnutls_parse_run(const th_baseline_input *in, uint64_t iterations, uint64_t *elapsed_ns) {
    if (in == NULL || elapsed_ns == NULL || in->chain == NULL || in->chain_lengths == NULL || in->chain_count == 0) {
        return TH_BASELINE_BAD_INPUT;
    }
    *elapsed_ns = 0;
    gnutls_x509_crt_t *chain = (gnutls_x509_crt_t *)calloc(in->chain_count, sizeof *chain);
    if (chain == NULL) return TH_BASELINE_LIBRARY_FAILED;
    int result = 1;
    uint64_t start = th_monotonic_ns();
    for (uint64_t iteration = 0; iteration < iterations; iteration++) {
        result = chain_import(in, chain);
        if (result < 0) break;
        chain_free(chain, in->chain_count);
        result = 1;
    }
    *elapsed_ns = th_monotonic_ns() - start;
    free(chain);
    return result;
}
