// CBotanBridge: Botan's path validation as its own TLS client asks it (x509_path_validate, as
// Botan::TLS::Callbacks::tls_verify_cert_chain calls it in src/lib/tls/tls_callbacks.cpp), behind a
// C interface: no C++ type and no exception crosses it.
#ifndef CBOTAN_BRIDGE_H
#define CBOTAN_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CBOTAN_MAX_CODES 64

typedef struct cbotan_outcome {
    /// 1 trusted, 0 rejected by path validation, -1 a failure before or around it (see message).
    int trusted;
    /// Path_Validation_Result::result(): the overall Certificate_Status_Code.
    int result;
    /// Every status of every certificate (Path_Validation_Result::all_statuses), with its depth
    /// (0 the leaf).
    int count;
    int codes[CBOTAN_MAX_CODES];
    int depths[CBOTAN_MAX_CODES];
    /// For trusted == -1: the index of the certificate that could not be read (anchors first,
    /// then the chain), or -1; and the exception's text.
    int failed_index;
    char message[512];
} cbotan_outcome;

typedef void (*cbotan_path_sink)(void *context, const uint8_t *der, size_t length);

/// Validates `chain` (DER, leaf first) against exactly `anchors` at `seconds` since 1970, with the
/// minimum key strength `strength` (bits), the usage TLS server authentication when
/// `usage_tls_server` (else unspecified), and `host` (NULL: none); no revocation data required.
void cbotan_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                   const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                   const char *host, int64_t seconds, size_t strength, int usage_tls_server,
                   cbotan_outcome *outcome, cbotan_path_sink sink, void *sink_context);

/// 0 when `der` is a certificate Botan reads, else 1 with the reason in `message`.
int cbotan_decode(const uint8_t *der, size_t length, char *message, size_t message_capacity);

/// Botan's text for a Certificate_Status_Code (Botan::to_string), or NULL.
const char *cbotan_status_text(int code);
/// Botan::version_string().
const char *cbotan_version(void);

/// The bare loop for `bench`: `iterations` times, parse the anchors and the chain when `cold` (once
/// before the loop otherwise) and validate as cbotan_verify does; nanoseconds, or 0 on a failure.
uint64_t cbotan_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const char *host, int64_t seconds, size_t strength, int cold, uint64_t iterations);

#ifdef __cplusplus
}
#endif

#endif
