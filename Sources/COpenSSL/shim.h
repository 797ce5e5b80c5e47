#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <openssl/ssl.h>

// The typed sk_X509_* accessors are function-like macros over OPENSSL_sk_*, which Swift cannot
// import; these wrappers give Swift the same typed operations.

// sk_X509_new_null is a macro.
static inline STACK_OF(X509) *COpenSSL_sk_X509_new_null(void) {
    return sk_X509_new_null();
}

// sk_X509_push is a macro; returns the new count, or 0 on failure (the stack then does not own x).
static inline int COpenSSL_sk_X509_push(STACK_OF(X509) *sk, X509 *x) {
    return sk_X509_push(sk, x);
}

// sk_X509_num is a macro.
static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *sk) {
    return sk_X509_num(sk);
}

// sk_X509_value is a macro.
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *sk, int i) {
    return sk_X509_value(sk, i);
}

// sk_X509_free is a macro; frees the stack only (the certificates stay owned elsewhere).
static inline void COpenSSL_sk_X509_free(STACK_OF(X509) *sk) {
    sk_X509_free(sk);
}

// The sk_X509_CRL_* accessors are macros too.
static inline STACK_OF(X509_CRL) *COpenSSL_sk_X509_CRL_new_null(void) {
    return sk_X509_CRL_new_null();
}

// Returns the new count, or 0 on failure (the stack then does not own crl).
static inline int COpenSSL_sk_X509_CRL_push(STACK_OF(X509_CRL) *sk, X509_CRL *crl) {
    return sk_X509_CRL_push(sk, crl);
}

// Frees the stack and every CRL on it.
static inline void COpenSSL_sk_X509_CRL_pop_free(STACK_OF(X509_CRL) *sk) {
    sk_X509_CRL_pop_free(sk, X509_CRL_free);
}

// SSL_set_tlsext_host_name is a macro over SSL_ctrl.
static inline long COpenSSL_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

// SSL_CTX_add_extra_chain_cert is a macro over SSL_CTX_ctrl; the context takes the certificate.
static inline long COpenSSL_SSL_CTX_add_extra_chain_cert(SSL_CTX *ctx, X509 *x509) {
    return SSL_CTX_add_extra_chain_cert(ctx, x509);
}

#endif
