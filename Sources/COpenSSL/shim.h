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

// OCSP stapling (RFC 6066 status_request). Every SSL_*_tlsext_status_* accessor is a macro over
// SSL_ctrl, SSL_CTX_ctrl or SSL_CTX_callback_ctrl.

// The server's callback when a client asks for status; it staples with
// COpenSSL_SSL_set_tlsext_status_ocsp_resp and returns SSL_TLSEXT_ERR_OK, or SSL_TLSEXT_ERR_NOACK.
static inline long COpenSSL_SSL_CTX_set_tlsext_status_cb(SSL_CTX *ctx, int (*cb)(SSL *, void *)) {
    return SSL_CTX_set_tlsext_status_cb(ctx, cb);
}

// The argument the status callback is given.
static inline long COpenSSL_SSL_CTX_set_tlsext_status_arg(SSL_CTX *ctx, void *arg) {
    return SSL_CTX_set_tlsext_status_arg(ctx, arg);
}

// OPENSSL_malloc is a macro (CRYPTO_malloc with the caller's file and line).
static inline void *COpenSSL_OPENSSL_malloc(size_t length) {
    return OPENSSL_malloc(length);
}

// The server's stapled response; the SSL takes ownership of `response`, which must come from
// OPENSSL_malloc (it is freed with OPENSSL_free).
static inline long COpenSSL_SSL_set_tlsext_status_ocsp_resp(SSL *ssl, unsigned char *response, long length) {
    return SSL_set_tlsext_status_ocsp_resp(ssl, response, length);
}

// A client asks for status (TLSEXT_STATUSTYPE_ocsp) before SSL_connect.
static inline long COpenSSL_SSL_set_tlsext_status_type(SSL *ssl, int type) {
    return SSL_set_tlsext_status_type(ssl, type);
}

// The response the server stapled, as the client received it (owned by the SSL); returns its
// length, or -1 when none was received.
static inline long COpenSSL_SSL_get_tlsext_status_ocsp_resp(SSL *ssl, const unsigned char **response) {
    return SSL_get_tlsext_status_ocsp_resp(ssl, response);
}

#endif
