// Botan's path validation behind a C interface (see cbotan_bridge.h). Every exception is caught here.
#include "cbotan_bridge.h"

#include <botan/certstor.h>
#include <botan/pkix_enums.h>
#include <botan/version.h>
#include <botan/x509cert.h>
#include <botan/x509path.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

namespace {

void copy_message(char *out, size_t capacity, const std::string &text) {
    if (capacity == 0) return;
    size_t n = text.size() < capacity - 1 ? text.size() : capacity - 1;
    std::memcpy(out, text.data(), n);
    out[n] = 0;
}

std::vector<Botan::X509_Certificate> parse(const uint8_t *const *ders, const size_t *lengths, size_t count, int offset, int *failed) {
    std::vector<Botan::X509_Certificate> certs;
    certs.reserve(count);
    for (size_t i = 0; i < count; i++) {
        *failed = offset + (int)i;
        certs.emplace_back(ders[i], lengths[i]);
    }
    *failed = -1;
    return certs;
}

Botan::Path_Validation_Result validate(const std::vector<Botan::X509_Certificate> &chain, const Botan::Certificate_Store_In_Memory &store,
                                      const char *host, int64_t seconds, size_t strength, int usage_tls_server) {
    // As Botan's TLS client (tls_verify_cert_chain, src/lib/tls/tls_callbacks.cpp) with no OCSP
    // responses: the policy's minimum signature strength, revocation data not required (the
    // request carries none), the host name, TLS server usage, the given time.
    Botan::Path_Validation_Restrictions restrictions(false, strength);
    auto when = std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
    return Botan::x509_path_validate(chain, restrictions, store, host ? std::string(host) : std::string(),
                                     usage_tls_server ? Botan::Usage_Type::TLS_SERVER_AUTH : Botan::Usage_Type::UNSPECIFIED, when);
}

}  // namespace

extern "C" void cbotan_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                              const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                              const char *host, int64_t seconds, size_t strength, int usage_tls_server,
                              cbotan_outcome *outcome, cbotan_path_sink sink, void *sink_context) {
    std::memset(outcome, 0, sizeof *outcome);
    outcome->failed_index = -1;
    int failed = -1;
    try {
        auto anchor_certs = parse(anchors, anchor_lengths, anchor_count, 0, &failed);
        auto chain_certs = parse(chain, chain_lengths, chain_count, (int)anchor_count, &failed);
        Botan::Certificate_Store_In_Memory store;
        for (const auto &anchor : anchor_certs) store.add_certificate(anchor);
        auto result = validate(chain_certs, store, host, seconds, strength, usage_tls_server);
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
            outcome->trusted = 1;
            if (sink) {
                for (const auto &cert : result.cert_path()) {
                    auto der = cert->BER_encode();
                    sink(sink_context, der.data(), der.size());
                }
            }
        }
    } catch (const std::exception &e) {
        outcome->trusted = -1;
        outcome->failed_index = failed;
        copy_message(outcome->message, sizeof outcome->message, e.what());
    } catch (...) {
        outcome->trusted = -1;
        outcome->failed_index = failed;
        copy_message(outcome->message, sizeof outcome->message, "an unknown C++ exception");
    }
}

extern "C" int cbotan_decode(const uint8_t *der, size_t length, char *message, size_t message_capacity) {
    try {
        Botan::X509_Certificate cert(der, length);
        return 0;
    } catch (const std::exception &e) {
        copy_message(message, message_capacity, e.what());
    } catch (...) {
        copy_message(message, message_capacity, "an unknown C++ exception");
    }
    return 1;
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
                                const char *host, int64_t seconds, size_t strength, int cold, uint64_t iterations) {
    try {
        int failed = -1;
        auto anchor_certs = parse(anchors, anchor_lengths, anchor_count, 0, &failed);
        auto chain_certs = parse(chain, chain_lengths, chain_count, 0, &failed);
        auto start = std::chrono::steady_clock::now();
        for (uint64_t i = 0; i < iterations; i++) {
            if (cold) {
                anchor_certs = parse(anchors, anchor_lengths, anchor_count, 0, &failed);
                chain_certs = parse(chain, chain_lengths, chain_count, 0, &failed);
            }
            Botan::Certificate_Store_In_Memory store;
            for (const auto &anchor : anchor_certs) store.add_certificate(anchor);
            if (!validate(chain_certs, store, host, seconds, strength, 1).successful_validation()) return 0;
        }
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
        return ns > 0 ? (uint64_t)ns : 1;
    } catch (...) {
        return 0;
    }
}
