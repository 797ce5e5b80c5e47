// Botan 2's path validation behind a C interface (see cbotan_shim.h). Every exception is caught here.
#include "cbotan_shim.h"

#include <botan/certstor.h>
#include <botan/ocsp.h>
#include <botan/pkix_enums.h>
#include <botan/version.h>
#include <botan/x509_crl.h>
#include <botan/x509cert.h>
#include <botan/x509path.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// Both are immutable once made. Botan's X509_Certificate keeps its decoded fields in a
// shared_ptr<const X509_Certificate_Data> filled by the constructor (src/lib/x509/x509cert.cpp) and
// has only const accessors, none of which caches anything; Certificate_Store_In_Memory's lookups
// (find_cert, find_all_certs, find_crl_for in src/lib/x509/certstor.cpp) are const and only read its
// vectors. Path validation copies the certificates it is given (x509_path_validate makes its own
// shared_ptrs) and only reads the stores, so any number of threads may validate with the same
// certificates and anchors at once.
struct cbotan_certificate {
    std::shared_ptr<const Botan::X509_Certificate> certificate;
};

struct cbotan_anchors {
    Botan::Certificate_Store_In_Memory store;
};

namespace {

void copy_message(char *out, size_t capacity, const std::string &text) {
    if (out == nullptr || capacity == 0) return;
    size_t n = std::min(text.size(), capacity - 1);
    std::memcpy(out, text.data(), n);
    out[n] = 0;
}

using Certificate = std::shared_ptr<const Botan::X509_Certificate>;

/// Whether Botan's PKIX::build_all_certificate_paths (src/lib/x509/x509path.cpp) stays within
/// `limit` for this chain: the certificates its depth-first search visits plus those of every path
/// it would then check. Botan enumerates every path to every trusted root, keeps them all in memory
/// and checks each in full (signatures included), which grows exponentially with certificates that
/// share a subject (x509-limbo's cross-signed cycles took minutes and gigabytes). This walks the same
/// search with the same store lookups (issuer DN and authority key id against the anchors, then the
/// presented certificates) without checking anything, and stops counting at `limit`. Loops are cut
/// per path as Botan cuts them, by identity here rather than by SHA-256 fingerprint, so the count
/// can only be higher than Botan's.
bool search_within_limit(const Certificate &leaf, const Botan::Certificate_Store &anchors,
                         const Botan::Certificate_Store &presented, size_t limit) {
    if (leaf->is_self_signed()) return true;
    std::vector<std::pair<Certificate, bool>> stack = {{leaf, false}};
    std::vector<const Botan::X509_Certificate *> path;
    size_t work = 0;
    while (!stack.empty()) {
        auto [certificate, trusted] = stack.back();
        stack.pop_back();
        if (!certificate) {  // Botan's backtracking marker
            path.pop_back();
            continue;
        }
        if (++work > limit) return false;
        if (std::find(path.begin(), path.end(), certificate.get()) != path.end()) continue;
        if (certificate->is_self_signed()) {
            if (trusted) {
                work += path.size() + 1;  // the whole path is then checked
                if (work > limit) return false;
            }
            continue;
        }
        auto issuers = anchors.find_all_certs(certificate->issuer_dn(), certificate->authority_key_id());
        auto others = presented.find_all_certs(certificate->issuer_dn(), certificate->authority_key_id());
        if (issuers.empty() && others.empty()) continue;
        path.push_back(certificate.get());
        stack.push_back({nullptr, false});
        for (auto &issuer : issuers) stack.push_back({issuer, true});
        for (auto &other : others) stack.push_back({other, false});
    }
    return true;
}

enum class Checked { validated, over_limit };

/// x509_path_validate as Botan::TLS::Callbacks::tls_verify_cert_chain (src/lib/tls/tls_callbacks.cpp)
/// calls it: Path_Validation_Restrictions(require_rev, minimum strength, ocsp_all_intermediates), the
/// trusted stores (the anchors, then a store of the request's CRLs, which PKIX::check_crl searches
/// with find_crl_for), the host name, the usage, the reference time, no online checks (the default
/// ocsp_timeout of 0) and the OCSP responses (ocsp_resp, as the client passes its stapled one;
/// PKIX::check_ocsp judges response i against certificate i of each path at the reference time).
/// ocsp_all_intermediates is what makes PKIX::merge_revocation_status require revocation data of
/// intermediates, not only of the leaf.
Checked validate(const std::vector<Certificate> &chain, const cbotan_anchors &anchors,
                 const std::vector<std::shared_ptr<const Botan::X509_CRL>> &crls,
                 const std::vector<std::shared_ptr<const Botan::OCSP::Response>> &ocsp,
                 const char *host, const cbotan_parameters &parameters, Botan::Path_Validation_Result *result) {
    if (parameters.search_limit > 0) {
        Botan::Certificate_Store_In_Memory presented;
        for (size_t i = 1; i < chain.size(); i++) presented.add_certificate(chain[i]);
        if (!search_within_limit(chain[0], anchors.store, presented, parameters.search_limit)) return Checked::over_limit;
    }
    std::vector<Botan::X509_Certificate> certificates;
    certificates.reserve(chain.size());
    for (const auto &certificate : chain) certificates.push_back(*certificate);

    // Botan's lookups are const; x509_path_validate's overload taking one `const Certificate_Store&`
    // casts the same way (src/lib/x509/x509path.cpp).
    std::vector<Botan::Certificate_Store *> stores = {const_cast<Botan::Certificate_Store_In_Memory *>(&anchors.store)};
    Botan::Certificate_Store_In_Memory revocation;
    if (!crls.empty()) {
        for (const auto &crl : crls) revocation.add_crl(crl);
        stores.push_back(&revocation);
    }
    Botan::Path_Validation_Restrictions restrictions(parameters.require_revocation != 0, parameters.minimum_strength,
                                                     parameters.require_revocation_of_intermediates != 0);
    auto usage = parameters.usage == CBOTAN_USAGE_TLS_SERVER_AUTH ? Botan::Usage_Type::TLS_SERVER_AUTH : Botan::Usage_Type::UNSPECIFIED;
    auto when = std::chrono::system_clock::time_point(std::chrono::seconds(parameters.seconds));
    *result = Botan::x509_path_validate(certificates, restrictions, stores, host ? std::string(host) : std::string(), usage, when,
                                        std::chrono::milliseconds(0), ocsp);
    return Checked::validated;
}

Certificate parse(const uint8_t *der, size_t length) {
    return std::make_shared<const Botan::X509_Certificate>(der, length);
}

}  // namespace

// Runs `body`, returning 0, or 1 with the text of any exception it throws in `message`: no
// exception crosses into Swift.
template <typename Body> int guarded(char *message, size_t capacity, Body body) {
    try {
        body();
        return 0;
    } catch (const std::exception &e) {
        copy_message(message, capacity, e.what());
    } catch (...) {
        copy_message(message, capacity, "an unknown C++ exception");
    }
    return 1;
}

extern "C" int cbotan_certificate_parse(const uint8_t *der, size_t length, cbotan_certificate **out, char *message, size_t capacity) {
    *out = nullptr;
    return guarded(message, capacity, [&] { *out = new cbotan_certificate{parse(der, length)}; });
}

extern "C" void cbotan_certificate_free(cbotan_certificate *certificate) { delete certificate; }

extern "C" int cbotan_anchors_make(const cbotan_certificate *const *certificates, size_t count, cbotan_anchors **out, char *message, size_t capacity) {
    *out = nullptr;
    return guarded(message, capacity, [&] {
        auto anchors = std::make_unique<cbotan_anchors>();
        for (size_t i = 0; i < count; i++) anchors->store.add_certificate(certificates[i]->certificate);
        *out = anchors.release();
    });
}

extern "C" void cbotan_anchors_free(cbotan_anchors *anchors) { delete anchors; }

extern "C" void cbotan_verify(const cbotan_anchors *anchors, const cbotan_certificate *const *chain, size_t chain_count,
                              const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                              const uint8_t *const *ocsp, const size_t *ocsp_lengths, size_t ocsp_count,
                              const char *host, const cbotan_parameters *parameters,
                              cbotan_outcome *outcome, cbotan_path_sink sink, void *sink_context) {
    std::memset(outcome, 0, sizeof *outcome);
    outcome->failed_index = -1;
    outcome->failed_ocsp_index = -1;
    try {
        std::vector<std::shared_ptr<const Botan::X509_CRL>> lists;
        for (size_t i = 0; i < crl_count; i++) {
            outcome->failed_index = (int)i;
            lists.push_back(std::make_shared<const Botan::X509_CRL>(std::vector<uint8_t>(crls[i], crls[i] + crl_lengths[i])));
        }
        outcome->failed_index = -1;
        // As Botan's TLS client reads a stapled response (tls_client.cpp: std::make_shared<OCSP::Response>
        // of the CertificateStatus message's bytes). One that does not decode throws: the client drops
        // it (catch Decoding_Error) and validates without it; here, as every back end must, revocation
        // data that cannot be read fails closed (failed_ocsp_index). One that decodes with a
        // responseStatus other than successful is kept, and PKIX::check_ocsp takes no status from it.
        std::vector<std::shared_ptr<const Botan::OCSP::Response>> responses;
        for (size_t i = 0; i < ocsp_count; i++) {
            outcome->failed_ocsp_index = (int)i;
            responses.push_back(std::make_shared<const Botan::OCSP::Response>(ocsp[i], ocsp_lengths[i]));
        }
        outcome->failed_ocsp_index = -1;
        std::vector<Certificate> certificates;
        certificates.reserve(chain_count);
        for (size_t i = 0; i < chain_count; i++) certificates.push_back(chain[i]->certificate);
        if (certificates.empty()) throw Botan::Invalid_Argument("the presented chain is empty");

        Botan::Path_Validation_Result result(Botan::Certificate_Status_Code::CERT_ISSUER_NOT_FOUND);
        if (validate(certificates, *anchors, lists, responses, host, *parameters, &result) == Checked::over_limit) {
            outcome->trusted = CBOTAN_SEARCH_LIMIT;
            outcome->result = (int)parameters->search_limit;
            return;
        }
        outcome->result = (int)result.result();
        const auto &statuses = result.all_statuses();
        for (size_t depth = 0; depth < statuses.size(); depth++) {
            for (auto code : statuses[depth]) {
                if ((int)code < (int)Botan::Certificate_Status_Code::FIRST_ERROR_STATUS) continue;
                if (outcome->count < CBOTAN_MAX_CODES) {
                    outcome->codes[outcome->count] = (int)code;
                    outcome->depths[outcome->count] = (int)depth;
                    outcome->count++;
                }
            }
        }
        if (result.successful_validation()) {
            std::vector<std::vector<uint8_t>> path;
            for (const auto &certificate : result.cert_path()) path.push_back(certificate->BER_encode());
            outcome->trusted = 1;
            if (sink) {
                for (const auto &der : path) sink(sink_context, der.data(), der.size());
            }
        }
    } catch (const std::exception &e) {
        outcome->trusted = CBOTAN_EXCEPTION;
        copy_message(outcome->message, sizeof outcome->message, e.what());
    } catch (...) {
        outcome->trusted = CBOTAN_EXCEPTION;
        copy_message(outcome->message, sizeof outcome->message, "an unknown C++ exception");
    }
}

extern "C" const char *cbotan_status_text(int code) {
    try {
        return Botan::to_string(static_cast<Botan::Certificate_Status_Code>(code));
    } catch (...) {
        return nullptr;
    }
}

extern "C" const char *cbotan_version(void) { return Botan::version_cstr(); }

extern "C" uint64_t cbotan_loop(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                                const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                                const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                                const uint8_t *const *ocsp, const size_t *ocsp_lengths, size_t ocsp_count,
                                const char *host, const cbotan_parameters *parameters, int cold, uint64_t iterations) {
    try {
        auto make_anchors = [&] {
            auto store = std::make_unique<cbotan_anchors>();
            for (size_t i = 0; i < anchor_count; i++) store->store.add_certificate(parse(anchors[i], anchor_lengths[i]));
            return store;
        };
        auto make_chain = [&] {
            std::vector<Certificate> certificates;
            for (size_t i = 0; i < chain_count; i++) certificates.push_back(parse(chain[i], chain_lengths[i]));
            return certificates;
        };
        if (chain_count == 0) return 0;
        auto store = make_anchors();
        auto certificates = make_chain();
        std::vector<std::shared_ptr<const Botan::X509_CRL>> lists;
        for (size_t i = 0; i < crl_count; i++) lists.push_back(std::make_shared<const Botan::X509_CRL>(std::vector<uint8_t>(crls[i], crls[i] + crl_lengths[i])));
        std::vector<std::shared_ptr<const Botan::OCSP::Response>> responses;
        for (size_t i = 0; i < ocsp_count; i++) responses.push_back(std::make_shared<const Botan::OCSP::Response>(ocsp[i], ocsp_lengths[i]));
        Botan::Path_Validation_Result result(Botan::Certificate_Status_Code::CERT_ISSUER_NOT_FOUND);
        auto start = std::chrono::steady_clock::now();
        for (uint64_t i = 0; i < iterations; i++) {
            // Cold: the presented chain parsed anew, as the back end's evaluator without a cache
            // parses it; the anchors stay, as the evaluator keeps its store (until issue 47 the cold
            // loop made the store again too, work the back end does not do: 0.95-0.97x counted).
            if (cold) certificates = make_chain();
            if (validate(certificates, *store, lists, responses, host, *parameters, &result) != Checked::validated) return 0;
            if (!result.successful_validation()) return 0;
        }
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
        return ns > 0 ? (uint64_t)ns : 1;
    } catch (...) {
        return 0;
    }
}
