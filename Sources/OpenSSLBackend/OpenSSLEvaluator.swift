internal import COpenSSL
import TrustBackendKit
import TrustCore

/// Verifies requests against one fixed set of anchors held in one OpenSSL `X509_STORE`.
///
/// The anchors are parsed and added once, in ``init(anchors:settings:configuration:)``; each
/// evaluation parses only the presented certificates it has not kept parsed, and makes one
/// `X509_STORE_CTX`.
///
/// Presented certificates are kept parsed in a ``BoundedCache`` keyed by their exact DER
/// (``BackendConfiguration/certificateCacheCapacity``), so a chain presented again costs no
/// `d2i_X509`. Evaluations on several threads may then verify the same `X509` at once. OpenSSL 3.0
/// allows that, as it does for the anchors every evaluation shares through the store: apart from
/// reference counts (atomic), `X509_verify_cert` only reads a certificate except for its cache of
/// decoded extensions and fingerprint, which `ossl_x509v3_cache_extensions` (crypto/x509/v3_purp.c)
/// fills once under the certificate's own lock and then publishes with an acquire/release flag.
/// The public key is decoded by `d2i_X509` itself, and re-encoding for signature checks uses the
/// DER kept at parse time. The one exception, copying missing DSA parameters into keys
/// (`X509_get_pubkey_parameters`), is kept away from shared certificates by
/// ``OpenSSLCertificate/isShareable``. Within one request every presented certificate is a distinct
/// object, as without the cache. A certificate that fails to parse is never kept.
final class OpenSSLEvaluator: TrustEvaluator, @unchecked Sendable {
    // @unchecked Sendable: the X509_STORE is only read after init and OpenSSL locks its lookups;
    // the cache is a Mutex-guarded table of certificates that may be shared (see above).

    /// `X509_STORE *`, owned.
    private let store: OpaquePointer
    /// The parsed anchors. The store holds its own references; these are kept so that every
    /// anchor lives exactly as long as the evaluator, whatever the store does.
    private let anchors: [OpenSSLCertificate]
    /// The anchors by their `X509 *`, to report a verified path's anchor in its DER.
    private let anchorsByIdentity: [OpaquePointer: OpenSSLCertificate]
    /// Presented certificates kept parsed, by their DER.
    let cache: BoundedCache<DERBytes, OpenSSLCertificate>
    /// Requests' CRLs kept parsed, by their DER: a few, since one can be megabytes.
    let revocationListCache: BoundedCache<DERBytes, ParsedRevocationList>
    /// The verification policy, as OpenSSL parameters computed once.
    let parameters: VerificationParameters

    /// Parses every anchor with `d2i_X509` and adds it to a new store.
    ///
    /// - Throws: ``TrustBackendError`` naming the index of the first anchor that is not exactly one
    ///   DER certificate, with OpenSSL's error stack; or when OpenSSL cannot make or fill the store.
    init(anchors ders: [[UInt8]], settings: OpenSSLBackend.Settings, configuration: BackendConfiguration) throws(TrustBackendError) {
        let backendName = settings.name
        var anchors: [OpenSSLCertificate] = []
        anchors.reserveCapacity(ders.count)
        for (index, der) in ders.enumerated() {
            do throws(CertificateParseFailure) {
                anchors.append(try OpenSSLCertificate.parse(der: der))
            } catch {
                OpenSSLErrorQueue.discard()
                throw TrustBackendError(
                    backend: backendName,
                    message: "anchor at index \(index) is not exactly one DER X.509 certificate: \(error)",
                    native: error.openSSLErrors.map { $0.diagnostic(.malformed) }
                )
            }
        }
        guard let store = X509_STORE_new() else {
            let errors = OpenSSLErrorQueue.drain()
            throw TrustBackendError(backend: backendName, message: "X509_STORE_new failed: OpenSSL could not allocate a trust store", native: errors.map { $0.diagnostic(.other) })
        }
        for (index, anchor) in anchors.enumerated() {
            // X509_STORE_add_cert takes its own reference, and accepts a duplicate as a no-op.
            guard anchor.withUnsafeX509({ X509_STORE_add_cert(store, $0) }) == 1 else {
                let errors = OpenSSLErrorQueue.drain()
                X509_STORE_free(store)
                throw TrustBackendError(backend: backendName, message: "X509_STORE_add_cert failed for the anchor at index \(index)", native: errors.map { $0.diagnostic(.other) })
            }
        }
        self.store = store
        self.anchors = anchors
        self.anchorsByIdentity = Dictionary(anchors.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        self.cache = BoundedCache(configuration)
        // As many CRLs as certificates allowed, at most 8: an uncached configuration keeps none.
        self.revocationListCache = BoundedCache(capacity: min(configuration.certificateCacheCapacity, 8))
        self.parameters = VerificationParameters(settings)
    }

    deinit {
        X509_STORE_free(store)
    }

    /// Lends the `X509_STORE *` for the duration of `body`; it must not be freed or modified.
    func withUnsafeStore<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(self) { try body(store) }
    }

    /// The DER of the anchor that is `x509` (compared by identity), if any.
    func anchorDER(of x509: OpaquePointer) -> [UInt8]? {
        anchorsByIdentity[x509]?.der
    }

    /// Verifies `request` with `X509_verify_cert` (see ``OpenSSLBackend/Settings`` for the settings).
    ///
    /// The leaf and the other presented certificates are given to OpenSSL as a libssl client gives
    /// them (`X509_STORE_CTX_init` with the untrusted stack); OpenSSL builds the path, and when the
    /// leaf is itself an anchor it is OpenSSL's rule that decides (with partial chains, a leaf found
    /// in the store ends the path only after building as far as the presented certificates reach).
    ///
    /// Never throws or traps: an empty chain, a certificate `d2i_X509` cannot read (the message names
    /// its index) or a host OpenSSL refuses is a ``FailureClass/malformed`` rejection;
    /// an OpenSSL failure or an inconsistent result is a ``FailureClass/other`` rejection. The
    /// calling thread's OpenSSL error queue is left empty.
    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // The guard (OpenSSLBackend.makeEvaluator's) has refused requests no library can be asked
        // and features OpenSSL does not honour; the bytes are OpenSSL's to read.
        defer { OpenSSLErrorQueue.discard() }
        let chain: PresentedChain
        do throws(PresentedChainError) {
            chain = try PresentedChain.parse(request.chain, cache: cache)
        } catch {
            return error.verdict
        }
        var revocationLists: RevocationLists?
        if !request.revocationLists.isEmpty {
            switch RevocationLists.parse(request.revocationLists, cache: revocationListCache) {
            case .success(let lists): revocationLists = lists
            case .failure(let error): return error.verdict
            }
        }
        let context: VerificationContext
        do throws(VerificationSetupError) {
            context = try VerificationContext.make(evaluator: self, chain: chain, request: request, revocationLists: revocationLists)
        } catch {
            return error.verdict
        }
        return context.verify()
    }
}
