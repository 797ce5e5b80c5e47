internal import CNIOBoringSSL
internal import CNIOBoringSSLShims
import NIOSSL
import TrustBackendKit

/// Verifies requests against one fixed set of anchors, as a swift-nio-ssl client configured with
/// `trustRoots: .certificates(anchors)` and `.fullVerification` does, at the request's time.
///
/// What is NIOSSL's and what is reproduced (see the README, "Below NIOSSL's public API"):
///
/// - the store: an `X509_STORE` holding the anchors (`X509_STORE_add_cert`, as
///   `NIOSSLContext.addRootCertificate`), no lookup directories, no CRLs;
/// - the parameters: `X509_V_FLAG_TRUSTED_FIRST` set as `NIOSSLContext.setupVerification` sets it
///   on the `SSL_CTX` (a no-op flag, 0, in this BoringSSL, which always looks for trusted issuers
///   first), copied into the context with `X509_VERIFY_PARAM_set1` after
///   `X509_STORE_CTX_set_default(ctx, "ssl_server")`, in the order of BoringSSL's
///   `ssl_crypto_x509_session_verify_cert_chain` (ssl/ssl_x509.cc); no verify callback
///   (NIOSSL sets none for this configuration);
/// - the time: `X509_STORE_CTX_set_time_posix(ctx, 0, request.unixTime)` on this context only,
///   the one difference from the handshake, which reads the clock (`time(nullptr)` in
///   `check_cert_time`, crypto/x509/x509_vfy.cc);
/// - then, when the chain is verified, NIOSSL's own host check (``NIOSSLIdentity``), as
///   `NIOSSLHandler` runs it after the handshake; a chain error wins, as the handshake fails first.
///
/// Everything is BoringSSL as swift-nio-ssl 2.37.6 embeds and links it (`CNIOBoringSSL`).
final class NIOSSLEvaluator: TrustEvaluator, @unchecked Sendable {
    // @unchecked Sendable: the X509_STORE and the parameters are only read after init (BoringSSL
    // locks the store's object list, x509_lu.cc), the cache is lock-guarded, and certificates are
    // only read (see BoringSSLCertificate).

    /// `X509_STORE *`, owned.
    private let store: OpaquePointer
    /// `X509_VERIFY_PARAM *`, owned: the `SSL_CTX`'s parameters as NIOSSL leaves them.
    private let sslParameters: OpaquePointer
    /// The anchors by their `X509 *`, to report a verified path's anchor in its DER; the store
    /// holds references of its own.
    private let anchorsByIdentity: [OpaquePointer: BoringSSLCertificate]
    let cache: BoundedCache<DERBytes, BoringSSLCertificate>
    let backendName: String
    let features: Set<BackendFeature>

    init(anchors ders: [[UInt8]], backendName: String, features: Set<BackendFeature>, configuration: BackendConfiguration) throws(TrustBackendError) {
        defer { BoringSSLErrorQueue.discard() }
        var anchors: [BoringSSLCertificate] = []
        anchors.reserveCapacity(ders.count)
        for (index, der) in ders.enumerated() {
            do throws(CertificateParseFailure) {
                anchors.append(try BoringSSLCertificate.anchor(der))
            } catch {
                throw TrustBackendError(
                    backend: backendName, message: "anchor at index \(index) is not a DER certificate BoringSSL can read: \(error)",
                    native: { if case .boringSSL(let errors) = error { errors.map { $0.diagnostic(.malformed) } } else { [] } }()
                )
            }
            // NIOSSL's own reading of the same trust root, as an application makes it for
            // `trustRoots: .certificates([...])` (it refuses DER over 100 KiB, d2i_X509_bio's limit).
            do {
                _ = try NIOSSLCertificate(bytes: der, format: .der)
            } catch {
                throw TrustBackendError(backend: backendName, message: "anchor at index \(index) is refused by NIOSSLCertificate(bytes:format: .der): \(error)")
            }
        }
        guard let store = X509_STORE_new() else {
            throw TrustBackendError(backend: backendName, message: "X509_STORE_new failed", native: BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) })
        }
        guard let parameters = X509_VERIFY_PARAM_new() else {
            X509_STORE_free(store)
            throw TrustBackendError(backend: backendName, message: "X509_VERIFY_PARAM_new failed", native: BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) })
        }
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_TRUSTED_FIRST))
        for (index, anchor) in anchors.enumerated() where X509_STORE_add_cert(store, anchor.identity) != 1 {
            let errors = BoringSSLErrorQueue.drain()
            X509_STORE_free(store)
            X509_VERIFY_PARAM_free(parameters)
            throw TrustBackendError(backend: backendName, message: "X509_STORE_add_cert failed for the anchor at index \(index) (NIOSSLError.failedToLoadCertificate)", native: errors.map { $0.diagnostic(.other) })
        }
        self.store = store
        self.sslParameters = parameters
        self.anchorsByIdentity = Dictionary(anchors.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        self.cache = BoundedCache(configuration)
        self.backendName = backendName
        self.features = features
    }

    deinit {
        X509_STORE_free(store)
        X509_VERIFY_PARAM_free(sslParameters)
    }

    /// Never throws or traps: bad input is a ``FailureClass/malformed`` rejection naming what was
    /// wrong, a BoringSSL failure an ``FailureClass/other`` one with its error stack. The calling
    /// thread's BoringSSL error queue is left empty.
    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard has refused requests no library can be asked and features this back end does
        // not honour; the bytes and the host are the library's to read.
        defer { BoringSSLErrorQueue.discard() }
        var chain: [BoringSSLCertificate] = []
        chain.reserveCapacity(request.chain.count)
        var seen = Set<ObjectIdentifier>()
        for (index, der) in request.chain.enumerated() {
            do throws(CertificateParseFailure) {
                var certificate = try cache.certificate(for: der, parse: BoringSSLCertificate.presented)
                if !seen.insert(ObjectIdentifier(certificate)).inserted {
                    // The same bytes twice in one chain: an object of its own, as the handshake has.
                    certificate = try BoringSSLCertificate.presented(der)
                    seen.insert(ObjectIdentifier(certificate))
                }
                chain.append(certificate)
            } catch {
                return .rejected([error.diagnostic(index: index)])
            }
        }
        let outcome = verifyChain(chain, time: request.unixTime, purpose: request.purpose)
        guard case .verified(let path) = outcome else {
            if case .rejected(let verdict) = outcome { return verdict }
            return .failClosed(.other, name: "INTERNAL", message: "unreachable", origin: .harness)
        }
        guard let host = request.host else { return .trusted(path: path) }
        let mismatch: NIOSSLIdentity.Mismatch?
        switch host {
        // NIOSSL compares iPAddress entries with the socket's remote address: the address the
        // request says the client connected to (for an IP host, that address unless one is given).
        case .dns(let name): mismatch = NIOSSLIdentity.check(leaf: chain[0], serverHostname: name, remoteAddress: request.connectedAddress)
        case .ipAddress(let bytes): mismatch = NIOSSLIdentity.check(leaf: chain[0], serverHostname: nil, remoteAddress: request.connectedAddress ?? bytes)
        }
        switch mismatch {
        case nil:
            return .trusted(path: path)
        case .failedToValidateHostname:
            return .failClosed(.hostnameMismatch, name: "NIOSSLExtraError.failedToValidateHostname", message: "NIOSSL's validIdentityForService: the leaf does not identify \(host)", depth: 0, origin: .library)
        case .serverHostnameImpossibleToMatch:
            return .failClosed(.hostnameMismatch, name: "NIOSSLExtraError.serverHostnameImpossibleToMatch", message: "NIOSSL matches only hosts of ASCII letters, digits, \"-\" and \".\": \(host) can match no certificate", depth: 0, origin: .library)
        }
    }

    private enum ChainOutcome {
        case verified([[UInt8]])
        case rejected(Verdict)
    }

    /// `X509_verify_cert` as `ssl_crypto_x509_session_verify_cert_chain` runs it, at `time`.
    private func verifyChain(_ chain: [BoringSSLCertificate], time: Int64, purpose: TrustPurpose) -> ChainOutcome {
        guard let stack = CNIOBoringSSLShims_sk_X509_new_null() else {
            return .rejected(.rejected(BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) } + [Self.libraryFailure("sk_X509_new_null")]))
        }
        // The stack holds references of its own, freed with it.
        defer { CNIOBoringSSLShims_sk_X509_pop_free(stack, X509_free) }
        for certificate in chain {
            X509_up_ref(certificate.identity)
            guard CNIOBoringSSLShims_sk_X509_push(stack, certificate.identity) > 0 else {
                X509_free(certificate.identity)
                return .rejected(.rejected(BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) } + [Self.libraryFailure("sk_X509_push")]))
            }
        }
        guard let context = X509_STORE_CTX_new() else {
            return .rejected(.rejected(BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) } + [Self.libraryFailure("X509_STORE_CTX_new")]))
        }
        defer { X509_STORE_CTX_free(context) }
        // The ssl_server purpose for a TLS server; for any purpose BoringSSL's "default"
        // parameters, which set no purpose (see NIOSSLBackend.features).
        let setUp = withExtendedLifetime(self) {
            X509_STORE_CTX_init(context, store, chain[0].identity, stack) == 1
                && X509_STORE_CTX_set_default(context, purpose == .serverAuthentication ? "ssl_server" : "default") == 1
                && X509_VERIFY_PARAM_set1(X509_STORE_CTX_get0_param(context), sslParameters) == 1
        }
        guard setUp else {
            return .rejected(.rejected(BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) } + [Self.libraryFailure("X509_STORE_CTX_init")]))
        }
        X509_STORE_CTX_set_time_posix(context, 0, time)
        let result = withExtendedLifetime(chain) { withExtendedLifetime(self) { X509_verify_cert(context) } }
        let error = X509_STORE_CTX_get_error(context)
        guard result == 1, error == X509_V_OK else {
            guard error != X509_V_OK else {
                return .rejected(.rejected(BoringSSLErrorQueue.drain().map { $0.diagnostic(.other) } + [
                    NativeDiagnostic(code: Int(result), name: "X509_verify_cert", message: "X509_verify_cert returned \(result) without a verification error: not trusted", failure: .other),
                ]))
            }
            let depth = Int(X509_STORE_CTX_get_error_depth(context))
            return .rejected(.rejected([X509VerifyError.diagnostic(code: error, depth: depth)]))
        }
        guard let verified = X509_STORE_CTX_get0_chain(context) else {
            return .rejected(.failClosed(.other, name: "NO_VERIFIED_CHAIN", message: "X509_verify_cert succeeded but gave no chain: not trusted", origin: .harness))
        }
        var path: [[UInt8]] = []
        let count = CNIOBoringSSLShims_sk_X509_num(verified)
        path.reserveCapacity(count)
        for index in 0..<count {
            guard let x509 = CNIOBoringSSLShims_sk_X509_value(verified, index),
                  let der = anchorsByIdentity[x509]?.der ?? chain.first(where: { $0.identity == x509 })?.der
            else {
                return .rejected(.failClosed(.other, name: "UNKNOWN_PATH_CERTIFICATE", message: "the verified chain holds a certificate at \(index) that is neither presented nor an anchor: not trusted", depth: index, origin: .harness))
            }
            path.append(der)
        }
        return .verified(path)
    }

    private static func libraryFailure(_ function: String) -> NativeDiagnostic {
        NativeDiagnostic(code: 0, name: function, message: "\(function) failed in BoringSSL: not trusted", failure: .other)
    }
}
