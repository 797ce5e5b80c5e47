internal import COpenSSL
import Foundation
import TrustCore
import TrustProbe
#if canImport(Glibc)
import Glibc
#endif

/// OpenSSL's TLS client (`SSL_connect`) verifying during the handshake with the evaluator's
/// settings: the same verification flags, host checks, purpose and security level, the request's
/// host (`X509_VERIFY_PARAM_set1_host`/`_ip`) and time (`X509_VERIFY_PARAM_set_time`), the given
/// anchors only. `SSL_VERIFY_NONE` lets the handshake finish whatever the verdict, which
/// `SSL_get_verify_result` then gives, so a rejected chain is still reported with what was
/// negotiated.
///
/// It asks for a stapled OCSP response (`SSL_set_tlsext_status_type` with `TLSEXT_STATUSTYPE_ocsp`,
/// the setting an application has) and reports the one received, but installs no status callback:
/// OpenSSL's client judges a staple only in an application's callback
/// (`SSL_CTX_set_tlsext_status_cb`; `tls_process_initial_server_flight` in ssl/statem/statem_clnt.c
/// calls it when set and otherwise goes on), so the verdict is OpenSSL's on the chain alone.
struct OpenSSLTLSClient: TLSClient {
    let parameters: VerificationParameters

    func handshake(_ target: TLSTarget, anchors: [[UInt8]], request: EvaluationRequest, timeout: Duration) -> HandshakeReport {
        let clock = HandshakeClock()
        if let refusal = clock.refusal(request) { return refusal }
        OpenSSLErrorQueue.discard()
        guard let context = SSL_CTX_new(TLS_client_method()) else { return clock.failed("setup", "SSL_CTX_new failed", userError: false) }
        defer { SSL_CTX_free(context) }
        guard let store = X509_STORE_new() else { return clock.failed("setup", "X509_STORE_new failed", userError: false) }
        SSL_CTX_set_cert_store(context, store)
        for (index, der) in anchors.enumerated() {
            let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            guard let x509 = parsed else { return clock.failed("anchors", "anchor \(index) is not a certificate OpenSSL can read", userError: true) }
            X509_STORE_add_cert(store, x509)
            X509_free(x509)
        }
        let fd: Int32
        do {
            fd = try TCPConnection.connect(target.address, port: target.port, timeout: timeout)
        } catch {
            return clock.failed("connect", error.message, userError: true)
        }
        defer { close(fd) }
        guard let ssl = SSL_new(context) else { return clock.failed("setup", "SSL_new failed", userError: false) }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, fd)
        if let name = target.serverName { _ = COpenSSL_SSL_set_tlsext_host_name(ssl, name) }
        _ = COpenSSL_SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp)
        let param = SSL_get0_param(ssl)
        X509_VERIFY_PARAM_set_flags(param, parameters.verifyFlags)
        if parameters.verifyFlags & UInt(X509_V_FLAG_TRUSTED_FIRST) == 0 {
            X509_VERIFY_PARAM_clear_flags(param, UInt(X509_V_FLAG_TRUSTED_FIRST))
        }
        X509_VERIFY_PARAM_set_purpose(param, parameters.purpose)
        X509_VERIFY_PARAM_set_auth_level(param, parameters.authLevel)
        X509_VERIFY_PARAM_set_time(param, .init(request.unixTime))
        // For every request, as VerificationContext sets them (the flags also govern name constraints).
        X509_VERIFY_PARAM_set_hostflags(param, parameters.hostFlags)
        switch request.host {
        case nil: break
        case .dns(let name):
            _ = X509_VERIFY_PARAM_set1_host(param, name, name.utf8.count)
        case .ipAddress(let bytes):
            _ = bytes.withUnsafeBufferPointer { X509_VERIFY_PARAM_set1_ip(param, $0.baseAddress, $0.count) }
        }
        SSL_set_verify(ssl, SSL_VERIFY_NONE, nil)
        errno = 0
        let result = SSL_connect(ssl)
        if result != 1 {
            let code = SSL_get_error(ssl, result)
            let errors = OpenSSLErrorQueue.drain()
            let systemError = errno
            if code == SSL_ERROR_SYSCALL || code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE {
                let why = systemError == EAGAIN || systemError == EWOULDBLOCK ? "the server did not answer within \(timeout)"
                    : systemError == 0 ? "the server closed the connection" : String(cString: strerror(systemError))
                return clock.failed("handshake", why + (errors.isEmpty ? "" : " (\(errors.map(\.description).joined(separator: "; ")))"), userError: true)
            }
            let reasons = errors.map(\.reason).joined(separator: "; ")
            // A server that does not speak TLS answers with bytes that are no TLS record.
            let notTLS = errors.contains { ["wrong version number", "packet length too long", "record layer failure", "http request", "unexpected eof while reading"].contains($0.reason) }
            return clock.failed("handshake", (notTLS ? "the server does not speak TLS: " : "") + (reasons.isEmpty ? "SSL_connect failed (SSL_get_error \(code))" : reasons), userError: notTLS)
        }
        let version = String(cString: SSL_get_version(ssl))
        let cipher = SSL_get_current_cipher(ssl).map { String(cString: SSL_CIPHER_get_name($0)) }
        let forwardSecret = version == "TLSv1.3" || (cipher.map { $0.hasPrefix("ECDHE") || $0.hasPrefix("DHE") } ?? false)
        var chain: [[UInt8]] = []
        if let stack = SSL_get_peer_cert_chain(ssl) {
            for index in 0..<COpenSSL_sk_X509_num(stack) {
                if let x509 = COpenSSL_sk_X509_value(stack, index), let der = VerificationContext.encode(x509) { chain.append(der) }
            }
        }
        var stapledBytes: UnsafePointer<UInt8>?
        let stapledLength = COpenSSL_SSL_get_tlsext_status_ocsp_resp(ssl, &stapledBytes)
        let stapled = stapledLength > 0 ? stapledBytes.map { Array(UnsafeBufferPointer(start: $0, count: stapledLength)) } : nil
        let verify = Int32(truncatingIfNeeded: SSL_get_verify_result(ssl))
        guard !chain.isEmpty else {
            return clock.report(.init(stage: "handshake", message: "the server sent no certificate", userError: false),
                          .failClosed(.untrusted, name: "NO_PEER_CERTIFICATE", message: "the server sent no certificate", origin: .library),
                          protocolVersion: version, cipher: cipher, forwardSecret: forwardSecret, stapledResponse: stapled)
        }
        let verdict: Verdict
        if verify == X509_V_OK {
            var path: [[UInt8]] = []
            if let verified = SSL_get0_verified_chain(ssl) {
                for index in 0..<COpenSSL_sk_X509_num(verified) {
                    if let x509 = COpenSSL_sk_X509_value(verified, index), let der = VerificationContext.encode(x509) { path.append(der) }
                }
            }
            verdict = path.isEmpty ? .failClosed(.other, name: "NO_VERIFIED_CHAIN", message: "the handshake verified no chain", origin: .harness) : .trusted(path: path)
        } else {
            verdict = .rejected([X509VerifyErrorCode.diagnostic(code: verify, depth: nil)])
        }
        return clock.report(nil, verdict, protocolVersion: version, cipher: cipher, forwardSecret: forwardSecret, chain: chain, stapledResponse: stapled)
    }
}

extension OpenSSLBackend: TLSClientProviding {
    /// OpenSSL's TLS client with this back end's settings.
    public var tlsClient: any TLSClient { OpenSSLTLSClient(parameters: VerificationParameters(settings)) }
}
