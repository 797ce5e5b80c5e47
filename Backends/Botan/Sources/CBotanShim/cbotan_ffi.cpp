// Botan's own C interface (botan/ffi.h) called as a C application calls it: `botan-ffi`'s fidelity
// reference (see cbotan_ffi_verify in cbotan_shim.h). Nothing here but Botan's C functions; no C++ of
// Botan's is used.
#include "cbotan_shim.h"

#include <botan/ffi.h>

#include <vector>

namespace {

/// Certificates loaded with botan_x509_cert_load, destroyed with botan_x509_cert_destroy.
struct loaded_certificates {
    std::vector<botan_x509_cert_t> handles;
    ~loaded_certificates() {
        for (auto handle : handles) botan_x509_cert_destroy(handle);
    }
    /// Loads every certificate; false as soon as one does not load.
    bool load(const uint8_t *const *ders, const size_t *lengths, size_t count) {
        handles.reserve(count);
        for (size_t i = 0; i < count; i++) {
            botan_x509_cert_t handle = nullptr;
            if (botan_x509_cert_load(&handle, ders[i], lengths[i]) != BOTAN_FFI_SUCCESS) return false;
            handles.push_back(handle);
        }
        return true;
    }
};

/// CRLs loaded with botan_x509_crl_load, destroyed with botan_x509_crl_destroy.
struct loaded_crls {
    std::vector<botan_x509_crl_t> handles;
    ~loaded_crls() {
        for (auto handle : handles) botan_x509_crl_destroy(handle);
    }
    /// Loads every CRL; false as soon as one does not load.
    bool load(const uint8_t *const *ders, const size_t *lengths, size_t count) {
        handles.reserve(count);
        for (size_t i = 0; i < count; i++) {
            botan_x509_crl_t handle = nullptr;
            // botan_x509_crl_load refuses a null pointer even for no bytes: such a CRL is not one.
            if (ders[i] == nullptr || botan_x509_crl_load(&handle, ders[i], lengths[i]) != BOTAN_FFI_SUCCESS) return false;
            handles.push_back(handle);
        }
        return true;
    }
};

}  // namespace

extern "C" int cbotan_ffi_verify(const uint8_t *const *anchors, const size_t *anchor_lengths, size_t anchor_count,
                                 const uint8_t *const *chain, const size_t *chain_lengths, size_t chain_count,
                                 const uint8_t *const *crls, const size_t *crl_lengths, size_t crl_count,
                                 const char *host, size_t required_strength, uint64_t reference_time) {
    if (chain_count == 0) return -1;
    try {  // Botan's C functions throw nothing; only the vectors here could (std::bad_alloc)
        loaded_certificates trusted, presented;
        if (!trusted.load(anchors, anchor_lengths, anchor_count) || !presented.load(chain, chain_lengths, chain_count)) return -1;
        int validation_result = 0;
        int status;
        if (crl_count == 0) {
            // The leaf, the rest as intermediates, the anchors as trusted certificates, no trusted path.
            status = botan_x509_cert_verify(&validation_result, presented.handles[0], presented.handles.data() + 1, chain_count - 1,
                                            trusted.handles.data(), trusted.handles.size(), nullptr, required_strength, host,
                                            reference_time);
        } else {
            loaded_crls lists;
            if (!lists.load(crls, crl_lengths, crl_count)) return -1;
            status = botan_x509_cert_verify_with_crl(&validation_result, presented.handles[0], presented.handles.data() + 1, chain_count - 1,
                                                     trusted.handles.data(), trusted.handles.size(), lists.handles.data(), lists.handles.size(),
                                                     nullptr, required_strength, host, reference_time);
        }
        // 0: validated; 1: not validated (the reason in validation_result); negative: an error.
        return status == BOTAN_FFI_SUCCESS ? 1 : status == 1 ? 0 : -1;
    } catch (...) {
        return -1;
    }
}
