#ifndef CGNUTLS_SHIM_H
#define CGNUTLS_SHIM_H

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/abstract.h>

/* gnutls_free is a mutable global function pointer, which Swift 6 rejects as shared mutable state. */
static inline void CGnuTLS_free(void *ptr) {
    gnutls_free(ptr);
}

/* GNUTLS_KP_TLS_WWW_SERVER is a string macro (a Swift String); this lends its static C storage. */
static inline const char *CGnuTLS_kp_tls_www_server(void) {
    return GNUTLS_KP_TLS_WWW_SERVER;
}

/* GNUTLS_PROFILE_TO_VFLAGS is a function-like macro, which Swift does not import. */
static inline unsigned int CGnuTLS_profile_to_vflags(gnutls_certificate_verification_profiles_t profile) {
    return GNUTLS_PROFILE_TO_VFLAGS(profile);
}

#endif /* CGNUTLS_SHIM_H */
