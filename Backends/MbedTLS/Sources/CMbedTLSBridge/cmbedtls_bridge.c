// One mbedTLS 2.28 verification, asked as mbedTLS's own TLS client asks it (see cmbedtls_bridge.h).
// Sources cited are Mbed-TLS/mbedtls at v2.28.3, the version Debian 12 ships (2.28.3-1).
#include "cmbedtls_bridge.h"
#include "cmbedtls_clock.h"

#include <mbedtls/error.h>
#include <mbedtls/oid.h>
#include <mbedtls/pk.h>
#include <mbedtls/ssl.h>
#include <mbedtls/ssl_ciphersuites.h>
#include <mbedtls/ssl_internal.h>
#include <mbedtls/version.h>
#include <mbedtls/x509_crl.h>
#include <mbedtls/x509_crt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct cmbedtls_anchors {
    mbedtls_x509_crt list;
};

int cmbedtls_anchors_make(const uint8_t *const *ders, const size_t *lengths, size_t count,
                          cmbedtls_anchors **out, int *errors) {
    *out = NULL;
    cmbedtls_anchors *anchors = calloc(1, sizeof *anchors);
    if (!anchors) return MBEDTLS_ERR_X509_ALLOC_FAILED;
    mbedtls_x509_crt_init(&anchors->list);
    for (size_t i = 0; i < count; i++) {
        errors[i] = mbedtls_x509_crt_parse_der(&anchors->list, ders[i], lengths[i]);
        // As mbedtls_x509_crt_parse: quit on a memory error, go on past any other.
        if (errors[i] == MBEDTLS_ERR_X509_ALLOC_FAILED) {
            mbedtls_x509_crt_free(&anchors->list);
            free(anchors);
            return MBEDTLS_ERR_X509_ALLOC_FAILED;
        }
    }
    *out = anchors;
    return 0;
}

void cmbedtls_anchors_free(cmbedtls_anchors *anchors) {
    if (!anchors) return;
    mbedtls_x509_crt_free(&anchors->list);
    free(anchors);
}

static const mbedtls_x509_crt_profile *profile_named(int profile) {
    switch (profile) {
    case CMBEDTLS_PROFILE_NEXT: return &mbedtls_x509_crt_profile_next;
    case CMBEDTLS_PROFILE_SUITEB: return &mbedtls_x509_crt_profile_suiteb;
    default: return &mbedtls_x509_crt_profile_default;
    }
}

// Parses a presented chain as ssl_parse_certificate_chain (ssl_tls.c) does with
// MBEDTLS_SSL_KEEP_PEER_CERTIFICATE (Debian's config.h): mbedtls_x509_crt_parse_der on each
// certificate in order; a certificate with an unknown signature algorithm is skipped ("Ignore
// certificate with an unknown algorithm: maybe a prior certificate was already trusted"), any other
// error ends parsing. Not the leaf: the TLS client would then verify the next certificate as the
// server's, which would not be the presented leaf, so a leaf that does not parse is an error here.
// Records the node of each parsed certificate in `nodes` (NULL for a skipped one). 0, or the error
// with *failed set.
static int parse_presented(mbedtls_x509_crt *chain, const uint8_t *const *ders, const size_t *lengths, size_t count,
                           const mbedtls_x509_crt **nodes, int *skipped, size_t *failed) {
    mbedtls_x509_crt *last = NULL;
    for (size_t i = 0; i < count; i++) {
        int error = mbedtls_x509_crt_parse_der(chain, ders[i], lengths[i]);
        if (error == MBEDTLS_ERR_X509_UNKNOWN_SIG_ALG + MBEDTLS_ERR_OID_NOT_FOUND && i > 0) {
            nodes[i] = NULL;
            (*skipped)++;
            continue;
        }
        if (error != 0) {
            *failed = i;
            return error;
        }
        last = last ? last->next : chain;
        nodes[i] = last;
    }
    return 0;
}

typedef struct verify_record {
    const mbedtls_x509_crt *certificates[CMBEDTLS_MAX_DEPTH];
    uint32_t flags[CMBEDTLS_MAX_DEPTH];
    int count;
} verify_record;

// The verification callback (f_vrfy): mbedTLS calls it for every certificate of the chain it built,
// from the top down (x509_crt_merge_flags_with_cb), with that certificate's flags. Changes nothing.
static int record_chain(void *context, mbedtls_x509_crt *certificate, int depth, uint32_t *flags) {
    verify_record *record = context;
    if (depth >= 0 && depth < CMBEDTLS_MAX_DEPTH) {
        record->certificates[depth] = certificate;
        record->flags[depth] = *flags;
        if (depth + 1 > record->count) record->count = depth + 1;
    }
    return 0;
}

// The TLS client's secondary check of the server's certificate (ssl_parse_certificate_verify,
// ssl_tls.c): mbedtls_ssl_check_cert_usage(chain, ciphersuite_info, !conf->endpoint, ...) with the
// client's endpoint, so cert_endpoint is MBEDTLS_SSL_IS_SERVER: keyUsage for the suite's key
// exchange and extendedKeyUsage serverAuth. The suite is the ECDHE one of the leaf's key type, the
// forward-secret suites mbedTLS's default list (ssl_ciphersuites.c, ciphersuite_preference) puts
// first; both ask keyUsage digitalSignature. Its other secondary check, the EC key's curve against
// conf->curve_list, cannot fail with the default configuration (mbedtls_ssl_config_defaults sets
// every compiled-in curve, mbedtls_ecp_grp_id_list) for a key mbedTLS parsed; Suite B's curve list
// equals its X.509 profile's curves, which the verification itself checks of the leaf
// (x509_profile_check_key in x509_crt_verify_restartable_ca_cb). 0 or -1 (usage refused), or 1 when
// the ciphersuite is not compiled in.
static int check_server_usage(const mbedtls_x509_crt *leaf, uint32_t *flags) {
    int suite_id = mbedtls_pk_can_do(&leaf->pk, MBEDTLS_PK_ECKEY)
        ? MBEDTLS_TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256
        : MBEDTLS_TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256;
    const mbedtls_ssl_ciphersuite_t *suite = mbedtls_ssl_ciphersuite_from_id(suite_id);
    if (!suite) return 1;
    return mbedtls_ssl_check_cert_usage(leaf, suite, MBEDTLS_SSL_IS_SERVER, flags) == 0 ? 0 : -1;
}

// Parses every CRL into `list` (initialised by the caller, freed by the caller whatever happens)
// with mbedtls_x509_crl_parse_der, which appends each to the list. 0, or the first error with
// *failed set, as mbedtls_x509_crl_parse (x509_crl.c) stops at the first CRL of a bundle that does
// not parse: revocation data that cannot be read never passes as absent.
static int parse_crls(mbedtls_x509_crl *list, const uint8_t *const *ders, const size_t *lengths, size_t count, size_t *failed) {
    for (size_t i = 0; i < count; i++) {
        // mbedtls_x509_crl_parse_der refuses a NULL buffer; an empty one is no CRL either.
        int error = ders[i] ? mbedtls_x509_crl_parse_der(list, ders[i], lengths[i]) : MBEDTLS_ERR_X509_INVALID_FORMAT;
        if (error != 0) {
            *failed = i;
            return error;
        }
    }
    return 0;
}

void cmbedtls_verify(const cmbedtls_anchors *anchors,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                     const char *host, int64_t unix_time, int profile, int usage,
                     cmbedtls_outcome *outcome, cmbedtls_path_sink sink, void *sink_context) {
    memset(outcome, 0, sizeof *outcome);
    for (int i = 0; i < CMBEDTLS_MAX_DEPTH; i++) outcome->depth_presented_index[i] = -1;
    if (!anchors || chain_count == 0 || (time_t)unix_time != unix_time) {
        outcome->step = CMBEDTLS_STEP_INTERNAL;
        outcome->error = MBEDTLS_ERR_X509_BAD_INPUT_DATA;
        return;
    }
    const mbedtls_x509_crt **nodes = calloc(chain_count, sizeof *nodes);
    if (!nodes) {
        outcome->step = CMBEDTLS_STEP_INTERNAL;
        outcome->error = MBEDTLS_ERR_X509_ALLOC_FAILED;
        return;
    }
    mbedtls_x509_crt presented;
    mbedtls_x509_crt_init(&presented);
    mbedtls_x509_crl revocation;
    mbedtls_x509_crl_init(&revocation);
    size_t failed = 0;
    int error = parse_presented(&presented, chain, chain_lengths, chain_count, nodes, &outcome->skipped, &failed);
    if (error != 0) {
        outcome->step = CMBEDTLS_STEP_PARSE;
        outcome->error = error;
        outcome->failed_index = (int)failed;
        goto done;
    }
    error = parse_crls(&revocation, crls, crl_lengths, crl_count, &failed);
    if (error != 0) {
        outcome->step = CMBEDTLS_STEP_CRL_PARSE;
        outcome->error = error;
        outcome->failed_index = (int)failed;
        goto done;
    }

    verify_record record;
    memset(&record, 0, sizeof record);
    uint32_t flags = 0;
    cmbedtls_clock_state clock = cmbedtls_clock_pin((time_t)unix_time);
    // mbedTLS takes the trusted list as a non-const pointer but only reads it: parents are searched
    // and their keys used (x509_crt_find_parent_in); an RSA key's lazily computed values are
    // guarded by the key's own mutex (mbedtls_rsa_public, rsa.c, MBEDTLS_THREADING_C) and an EC key
    // is copied before use (eckey_verify_wrap, pk_wrap.c), so concurrent verifications may share it.
    // An empty list (no anchor parsed) is no list: as the TLS client without a CA chain.
    mbedtls_x509_crt *trusted = anchors->list.version != 0 ? (mbedtls_x509_crt *)&anchors->list : NULL;
    // The CRLs as ca_crl, as mbedtls_ssl_conf_ca_chain(conf, ca_chain, ca_crl) gives them to the TLS
    // client: x509_crt_verifycrl checks each certificate against every CRL whose issuer name is its
    // parent's subject (cRLSign, the CRL's signature and profile, thisUpdate, nextUpdate, then the
    // serial), and a certificate no CRL names passes: soft-fail, mbedTLS's one mode.
    mbedtls_x509_crl *ca_crl = crl_count > 0 ? &revocation : NULL;
    error = mbedtls_x509_crt_verify_with_profile(&presented, trusted, ca_crl,
                                                 profile_named(profile), host, &flags, record_chain, &record);
    cmbedtls_clock_restore(clock);
    if (error != 0 && error != MBEDTLS_ERR_X509_CERT_VERIFY_FAILED) {
        outcome->step = CMBEDTLS_STEP_FATAL;
        outcome->error = error;
        goto done;
    }
    int usage_result = 0;
    if (usage == CMBEDTLS_USAGE_TLS_SERVER) {
        usage_result = check_server_usage(&presented, &outcome->usage_flags);
        if (usage_result == 1) {
            outcome->step = CMBEDTLS_STEP_INTERNAL;
            outcome->error = MBEDTLS_ERR_SSL_FEATURE_UNAVAILABLE;
            goto done;
        }
    }
    outcome->flags = flags | outcome->usage_flags;
    outcome->depth_count = record.count;
    for (int depth = 0; depth < record.count; depth++) {
        outcome->depth_flags[depth] = record.flags[depth];
        for (size_t i = 0; i < chain_count; i++) {
            if (nodes[i] && nodes[i] == record.certificates[depth]) {
                outcome->depth_presented_index[depth] = (int)i;
                break;
            }
        }
    }
    if (error == 0 && usage_result == 0 && outcome->flags == 0) {
        outcome->trusted = 1;
        if (sink) {
            for (int depth = 0; depth < record.count; depth++) {
                const mbedtls_x509_crt *certificate = record.certificates[depth];
                if (certificate) sink(sink_context, certificate->raw.p, certificate->raw.len);
            }
        }
    } else {
        outcome->step = CMBEDTLS_STEP_FLAGS;
    }
done:
    mbedtls_x509_crl_free(&revocation);
    mbedtls_x509_crt_free(&presented);
    free(nodes);
}

void cmbedtls_flag_text(uint32_t flag, char *buffer, size_t length) {
    if (length == 0) return;
    buffer[0] = 0;
    int written = mbedtls_x509_crt_verify_info(buffer, length, "", flag);
    // mbedtls_x509_crt_verify_info ends each entry with a newline.
    if (written > 0 && (size_t)written <= length && buffer[written - 1] == '\n') buffer[written - 1] = 0;
}

void cmbedtls_error_text(int code, char *buffer, size_t length) {
    mbedtls_strerror(code, buffer, length);
}

const char *cmbedtls_high_level_name(int code) {
    int high = -((-code) & 0xFF80);
    switch (high) {
    case 0: return NULL;
    case MBEDTLS_ERR_X509_FEATURE_UNAVAILABLE: return "MBEDTLS_ERR_X509_FEATURE_UNAVAILABLE";
    case MBEDTLS_ERR_X509_UNKNOWN_OID: return "MBEDTLS_ERR_X509_UNKNOWN_OID";
    case MBEDTLS_ERR_X509_INVALID_FORMAT: return "MBEDTLS_ERR_X509_INVALID_FORMAT";
    case MBEDTLS_ERR_X509_INVALID_VERSION: return "MBEDTLS_ERR_X509_INVALID_VERSION";
    case MBEDTLS_ERR_X509_INVALID_SERIAL: return "MBEDTLS_ERR_X509_INVALID_SERIAL";
    case MBEDTLS_ERR_X509_INVALID_ALG: return "MBEDTLS_ERR_X509_INVALID_ALG";
    case MBEDTLS_ERR_X509_INVALID_NAME: return "MBEDTLS_ERR_X509_INVALID_NAME";
    case MBEDTLS_ERR_X509_INVALID_DATE: return "MBEDTLS_ERR_X509_INVALID_DATE";
    case MBEDTLS_ERR_X509_INVALID_SIGNATURE: return "MBEDTLS_ERR_X509_INVALID_SIGNATURE";
    case MBEDTLS_ERR_X509_INVALID_EXTENSIONS: return "MBEDTLS_ERR_X509_INVALID_EXTENSIONS";
    case MBEDTLS_ERR_X509_UNKNOWN_VERSION: return "MBEDTLS_ERR_X509_UNKNOWN_VERSION";
    case MBEDTLS_ERR_X509_UNKNOWN_SIG_ALG: return "MBEDTLS_ERR_X509_UNKNOWN_SIG_ALG";
    case MBEDTLS_ERR_X509_SIG_MISMATCH: return "MBEDTLS_ERR_X509_SIG_MISMATCH";
    case MBEDTLS_ERR_X509_CERT_VERIFY_FAILED: return "MBEDTLS_ERR_X509_CERT_VERIFY_FAILED";
    case MBEDTLS_ERR_X509_CERT_UNKNOWN_FORMAT: return "MBEDTLS_ERR_X509_CERT_UNKNOWN_FORMAT";
    case MBEDTLS_ERR_X509_BAD_INPUT_DATA: return "MBEDTLS_ERR_X509_BAD_INPUT_DATA";
    case MBEDTLS_ERR_X509_ALLOC_FAILED: return "MBEDTLS_ERR_X509_ALLOC_FAILED";
    case MBEDTLS_ERR_X509_FATAL_ERROR: return "MBEDTLS_ERR_X509_FATAL_ERROR";
    case MBEDTLS_ERR_PK_ALLOC_FAILED: return "MBEDTLS_ERR_PK_ALLOC_FAILED";
    case MBEDTLS_ERR_PK_TYPE_MISMATCH: return "MBEDTLS_ERR_PK_TYPE_MISMATCH";
    case MBEDTLS_ERR_PK_BAD_INPUT_DATA: return "MBEDTLS_ERR_PK_BAD_INPUT_DATA";
    case MBEDTLS_ERR_PK_KEY_INVALID_FORMAT: return "MBEDTLS_ERR_PK_KEY_INVALID_FORMAT";
    case MBEDTLS_ERR_PK_UNKNOWN_PK_ALG: return "MBEDTLS_ERR_PK_UNKNOWN_PK_ALG";
    case MBEDTLS_ERR_PK_INVALID_PUBKEY: return "MBEDTLS_ERR_PK_INVALID_PUBKEY";
    case MBEDTLS_ERR_PK_INVALID_ALG: return "MBEDTLS_ERR_PK_INVALID_ALG";
    case MBEDTLS_ERR_PK_UNKNOWN_NAMED_CURVE: return "MBEDTLS_ERR_PK_UNKNOWN_NAMED_CURVE";
    case MBEDTLS_ERR_PK_FEATURE_UNAVAILABLE: return "MBEDTLS_ERR_PK_FEATURE_UNAVAILABLE";
    case MBEDTLS_ERR_SSL_FEATURE_UNAVAILABLE: return "MBEDTLS_ERR_SSL_FEATURE_UNAVAILABLE";
    default: return NULL;
    }
}

const char *cmbedtls_low_level_name(int code) {
    int low = -((-code) & 0x007F);
    switch (low) {
    case 0: return NULL;
    case MBEDTLS_ERR_ASN1_OUT_OF_DATA: return "MBEDTLS_ERR_ASN1_OUT_OF_DATA";
    case MBEDTLS_ERR_ASN1_UNEXPECTED_TAG: return "MBEDTLS_ERR_ASN1_UNEXPECTED_TAG";
    case MBEDTLS_ERR_ASN1_INVALID_LENGTH: return "MBEDTLS_ERR_ASN1_INVALID_LENGTH";
    case MBEDTLS_ERR_ASN1_LENGTH_MISMATCH: return "MBEDTLS_ERR_ASN1_LENGTH_MISMATCH";
    case MBEDTLS_ERR_ASN1_INVALID_DATA: return "MBEDTLS_ERR_ASN1_INVALID_DATA";
    case MBEDTLS_ERR_ASN1_ALLOC_FAILED: return "MBEDTLS_ERR_ASN1_ALLOC_FAILED";
    case MBEDTLS_ERR_ASN1_BUF_TOO_SMALL: return "MBEDTLS_ERR_ASN1_BUF_TOO_SMALL";
    case MBEDTLS_ERR_OID_NOT_FOUND: return "MBEDTLS_ERR_OID_NOT_FOUND";
    default: return NULL;
    }
}

void cmbedtls_version(char *buffer) {
    mbedtls_version_get_string_full(buffer);
}

uint64_t cmbedtls_loop(const uint8_t *const *anchor_ders, const size_t *anchor_lengths, size_t anchor_count,
                       const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                       const uint8_t *const *crl_ders, const size_t *crl_lengths, size_t crl_count,
                       const char *host, int64_t unix_time, int profile, int usage, int cold, uint64_t iterations) {
    if (chain_count == 0 || (time_t)unix_time != unix_time) return 0;
    mbedtls_x509_crt anchors;
    mbedtls_x509_crt_init(&anchors);
    mbedtls_x509_crl crls;
    mbedtls_x509_crl_init(&crls);
    int ok = 1;
    for (size_t i = 0; i < crl_count && ok; i++) {
        if (!crl_ders[i] || mbedtls_x509_crl_parse_der(&crls, crl_ders[i], crl_lengths[i]) != 0) ok = 0;
    }
    // The anchors are parsed once, cold or warm, as the back end parses them once per evaluator (its
    // cold evaluator has no cache of presented certificates; it still keeps its anchors); the
    // presented chain is parsed on every iteration in both, as the back end parses it on every
    // evaluation (mbedTLS verifies a parsed list it cannot share between threads). Until issue 47 the
    // cold loop parsed the anchors every time too, work the back end does not do: 0.91x counted.
    (void)cold;
    for (size_t i = 0; i < anchor_count && ok; i++) {
        if (mbedtls_x509_crt_parse_der(&anchors, anchor_ders[i], anchor_lengths[i]) != 0) ok = 0;
    }
    cmbedtls_clock_state clock = cmbedtls_clock_pin((time_t)unix_time);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (uint64_t k = 0; k < iterations && ok; k++) {
        mbedtls_x509_crt presented;
        mbedtls_x509_crt_init(&presented);
        for (size_t i = 0; i < chain_count && ok; i++) {
            if (mbedtls_x509_crt_parse_der(&presented, chain[i], chain_lengths[i]) != 0) ok = 0;
        }
        uint32_t flags = 0;
        if (ok && mbedtls_x509_crt_verify_with_profile(&presented, &anchors, crl_count > 0 ? &crls : NULL, profile_named(profile),
                                                       host, &flags, NULL, NULL) != 0) ok = 0;
        if (ok && usage == CMBEDTLS_USAGE_TLS_SERVER && check_server_usage(&presented, &flags) != 0) ok = 0;
        mbedtls_x509_crt_free(&presented);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    cmbedtls_clock_restore(clock);
    mbedtls_x509_crt_free(&anchors);
    mbedtls_x509_crl_free(&crls);
    if (!ok) return 0;
    uint64_t ns = (uint64_t)(end.tv_sec - start.tv_sec) * 1000000000u + (uint64_t)(end.tv_nsec - start.tv_nsec);
    return ns ? ns : 1;
}
