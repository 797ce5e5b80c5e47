// CBotanShim: Botan 2's path validation as Botan's own TLS client asks for it, behind a C interface.
//
// Botan's C interface cannot be used: botan_x509_cert_verify (src/lib/ffi/ffi_cert.cpp, Botan
// 2.19.3) validates with Usage_Type::UNSPECIFIED, so a leaf without TLS server usage would pass, and
// returns no path; it is only botan-ffi's fidelity reference (cbotan_ffi_verify). This shim calls
// Botan::x509_path_validate (src/lib/x509/x509path.cpp) as Botan::TLS::Callbacks::
// tls_verify_cert_chain (src/lib/tls/tls_callbacks.cpp) does. No C++ type and no exception crosses
// this header: every function catches everything and reports it.
#ifndef CBOTAN_SHIM_H
#define CBOTAN_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A parsed certificate (a Botan::X509_Certificate), immutable once made.
typedef struct cbotan_certificate cbotan_certificate;
/// The trust anchors (a Botan::Certificate_Store_In_Memory), immutable once made.
typedef struct cbotan_anchors cbotan_anchors;

/// Parses `der` into `*out` (free with cbotan_certificate_free); 0 on success, else 1 with Botan's
/// reason in `message`.
int cbotan_certificate_parse(const uint8_t *der, size_t length, cbotan_certificate **out, char *message, size_t capacity);
void cbotan_certificate_free(cbotan_certificate *certificate);

/// A store of exactly `certificates` (not taken: the store keeps its own references); 0 on success,
/// else 1 with the reason in `message`. Free with cbotan_anchors_free.
int cbotan_anchors_make(const cbotan_certificate *const *certificates, size_t count, cbotan_anchors **out, char *message, size_t capacity);
void cbotan_anchors_free(cbotan_anchors *anchors);

/// Botan::Usage_Type values the shim passes on.
enum {
    CBOTAN_USAGE_UNSPECIFIED = 0,
    CBOTAN_USAGE_TLS_SERVER_AUTH = 1,
};

/// What one validation asks of Botan (Path_Validation_Restrictions and x509_path_validate's arguments).
typedef struct cbotan_parameters {
    /// Seconds since 1970: the reference time.
    int64_t seconds;
    /// Path_Validation_Restrictions' minimum_key_strength (bits).
    size_t minimum_strength;
    /// CBOTAN_USAGE_*.
    int usage;
    /// Path_Validation_Restrictions' require_rev: when nonzero, the leaf needs revocation
    /// information (a CRL Botan checked, or an OCSP response saying good), else NO_REVOCATION_DATA
    /// (PKIX::merge_revocation_status).
    int require_revocation;
    /// Path_Validation_Restrictions' ocsp_all_intermediates, which PKIX::merge_revocation_status
    /// reads as the same requirement for every intermediate (and which asks for online OCSP of
    /// intermediates only when an OCSP timeout is given: never here).
    int require_revocation_of_intermediates;
    /// The most certificates Botan's path search (PKIX::build_all_certificate_paths) may visit and
    /// check; 0: no limit. A chain over it is refused (CBOTAN_SEARCH_LIMIT) before Botan runs.
    size_t search_limit;
} cbotan_parameters;

#define CBOTAN_MAX_CODES 64

/// `trusted` values besides 1 (trusted) and 0 (rejected by path validation).
enum {
    /// A C++ exception (message in `message`; `failed_index` names the CRL Botan could not read, or
    /// -1; `failed_ocsp_index` the OCSP response, or -1).
    CBOTAN_EXCEPTION = -1,
    /// The path search would exceed `search_limit` (the count in `result`).
    CBOTAN_SEARCH_LIMIT = -2,
};

typedef struct cbotan_outcome {
    int trusted;
    /// Path_Validation_Result::result(): the overall Certificate_Status_Code.
    int result;
    /// Every error status (>= FIRST_ERROR_STATUS) of every certificate of the path Botan reports
    /// (Path_Validation_Result::all_statuses), with its position (0 the leaf), at most CBOTAN_MAX_CODES.
    int count;
    int codes[CBOTAN_MAX_CODES];
    int depths[CBOTAN_MAX_CODES];
    int failed_index;
    int failed_ocsp_index;
    char message[512];
} cbotan_outcome;

/// Receives the validated path, one DER certificate at a time, leaf first, ending at the anchor.
typedef void (*cbotan_path_sink)(void *context, const uint8_t *der, size_t length);

/// Validates `chain` (leaf first) against exactly `anchors` with `parameters`, `host` (NULL: none),
/// the CRLs `crls` (DER; read here into a store of their own, one per issuer kept as
/// Certificate_Store_In_Memory::add_crl keeps it) and the OCSP responses `ocsp` (DER OCSPResponse;
/// read here as OCSP::Response, passed as x509_path_validate's ocsp_resp, which PKIX::check_ocsp
/// takes by position: response i for certificate i of the path, the leaf's first). Never throws;
/// fills `outcome`; on success passes the path to `sink`.
void cbotan_verify(const cbotan_anchors *anchors, const cbotan_certificate *const *chain, size_t chain_count,
                   const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                   const uint8_t *const *ocsp, const size_t *ocsp_lengths, size_t ocsp_count,
                   const char *host, const cbotan_parameters *parameters,
                   cbotan_outcome *outcome, cbotan_path_sink sink, void *sink_context);

/// Botan's text for a Certificate_Status_Code (Botan::to_string), or NULL.
const char *cbotan_status_text(int code);
/// Botan::version_cstr().
const char *cbotan_version(void);

/// The bare loop for `bench` (and the fidelity reference of `botan` and `botan-legacy`): the anchors'
/// store made once and the CRLs and OCSP responses read once (X509_CRL, OCSP::Response), then
/// `iterations` times validate the chain (parsed every time when `cold`, once before the loop
/// otherwise) as cbotan_verify does with `parameters`; nanoseconds, or 0 when anything fails (a CRL
/// or response that does not decode too) or a validation does not succeed.
uint64_t cbotan_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                     const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                     const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                     const uint8_t *const *ocsp, const size_t *ocsp_lengths, size_t ocsp_count,
                     const char *host, const cbotan_parameters *parameters, int cold, uint64_t iterations);

/// Botan's own C interface called as a C application verifies a server's chain with it (cbotan_ffi.cpp):
/// botan_x509_cert_load for each anchor and presented certificate, then
/// botan_x509_cert_verify(leaf, the rest as intermediates, the anchors as trusted, no trusted path,
/// `required_strength`, `host` (NULL: none), `reference_time`), then botan_x509_cert_destroy. Botan
/// validates for Usage_Type::UNSPECIFIED with Path_Validation_Restrictions(false, required_strength)
/// (src/lib/ffi/ffi_cert.cpp); a reference_time of 0 is Botan's "now". With CRLs (`crl_count` > 0),
/// each is loaded with botan_x509_crl_load and the call is botan_x509_cert_verify_with_crl, the same
/// validation with the CRLs in a store of their own (still require_rev false: soft-fail). 1 when
/// Botan validated the chain, 0 when it did not, -1 when a certificate or CRL did not load or the
/// call failed.
int cbotan_ffi_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                      const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                      const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                      const char *host, size_t required_strength, uint64_t reference_time);

#ifdef __cplusplus
}
#endif

#endif
