internal import CGnuTLS
import TrustBackendKit
import TrustCore
import TrustDER
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Evaluates requests with GnuTLS against one trust list, made once from the anchors, as a GnuTLS TLS
/// client verifies its peer's chain (`gnutls_certificate_verify_peers`, `_gnutls_x509_cert_verify_peers`
/// in lib/cert-session.c).
///
/// Each evaluation imports the presented chain as it came, refuses a list longer than a client's
/// verify depth (``maximumPresentedCertificates``), and calls `gnutls_x509_trust_list_verify_crt2`
/// once with the whole list in the order presented, the settings' profile and flags, the request's
/// host (`GNUTLS_DT_DNS_HOSTNAME` or `GNUTLS_DT_IP_ADDRESS`) and key purpose, at the request's time
/// (``EvaluationScope``). GnuTLS sorts the list itself, asks the trust list for the issuer, and
/// accepts a leaf identical to a trusted certificate as GnuTLS 3.7 does; nothing of ours chooses
/// the path. Status 0 is trusted; any other status is a rejection with one diagnostic per status bit
/// (``GnuTLSStatus``).
///
/// GnuTLS does not return the path it verified. Its verification callback reports each
/// certificate it checked and the issuer it checked it against (``VerificationLog``); the path
/// reported is the walk from the presented leaf through those issuers to an anchor. A status 0 the
/// log does not explain is rejected (`UNEXPECTED_SUCCESS`), to fail closed.
///
/// Presented certificates are kept imported in a ``BoundedCache`` keyed by their exact DER
/// (``BackendConfiguration/certificateCacheCapacity``), so a chain presented again costs no
/// `gnutls_x509_crt_import`, and evaluations on several threads may then use one
/// `gnutls_x509_crt_t` at once. GnuTLS allows that: its manual (section "Thread safety") makes
/// read-only access to an object thread-safe, and verification only reads a certificate. In GnuTLS
/// 3.7 every cached field of `gnutls_x509_crt_int` (raw subject, issuer and key, DER, alternative
/// names) is filled by `gnutls_x509_crt_import`; only the setters mark it modified; `verify_crt`
/// and the name, purpose and extension checks call getters only (lib/x509/verify.c); and the
/// libtasn1 tree they read records each element's DER offsets when it is decoded, so
/// `asn1_der_decoding_startEnd` never decodes again. GnuTLS relies on the same for the trusted
/// certificates of a trust list shared by many sessions, which play the issuer role here exactly as
/// a shared intermediate does. GnuTLS compares certificates by content, never by handle
/// (`_gnutls_sort_clist`, its duplicate removal, `gnutls_x509_crt_equals`), so the same bytes
/// presented twice may share one handle without changing what it does. A certificate that fails to
/// import is never kept.
final class GnuTLSEvaluator: TrustEvaluator, @unchecked Sendable {
    // @unchecked Sendable: all state is immutable after init except the Mutex-guarded cache, and GnuTLS only reads the trust list and certificates when verifying.

    /// The most certificates a GnuTLS client verifies in a peer's list: `_gnutls_x509_cert_verify_peers`
    /// (lib/cert-session.c, GnuTLS 3.7.9), behind every `gnutls_certificate_verify_peers*`, returns
    /// `GNUTLS_E_CONSTRAINT_ERROR` when `info->ncerts > cred->verify_depth && cred->verify_depth > 0`,
    /// before verifying anything; `gnutls_certificate_allocate_credentials` (lib/cert-cred.c) sets
    /// `verify_depth` to `DEFAULT_MAX_VERIFY_DEPTH` (16, lib/gnutls_int.h), which an application
    /// changes only with `gnutls_certificate_set_verify_limits`. It counts the certificates presented,
    /// not the path.
    ///
    /// Below the client, GnuTLS 3.7.9's own functions assume the same bound: `_gnutls_sort_clist`
    /// (lib/x509/common.c) asserts `clist_size <= DEFAULT_MAX_VERIFY_DEPTH`, and
    /// `gnutls_x509_trust_list_verify_crt2` (lib/x509/verify-high.c) copies the list into a stack
    /// array of `DEFAULT_MAX_VERIFY_DEPTH` entries without checking its length and sorts it only when
    /// it has at most that many. GnuTLS 3.7.11 and 3.8.4 (CVE-2024-28835; Debian's 3.7.9-2+deb12u3
    /// carries the fix) copy it to the heap instead, and `_gnutls_sort_clist` then leaves a longer list
    /// unsorted. Refusing longer lists first, as the client does, keeps every build safe.
    static let maximumPresentedCertificates = 16

    /// The back end's ``GnuTLSBackend/Settings`` as GnuTLS verification flags (profile included).
    let verificationFlags: UInt32
    /// Whether the request's purpose is passed to GnuTLS (``GnuTLSBackend/Settings/checksKeyPurpose``).
    let checksKeyPurpose: Bool
    /// How a request's CRLs are added (``GnuTLSBackend/Settings/verifiesRevocationLists``).
    let revocationListAddFlags: UInt32

    private let trustList: GnuTLSTrustList
    /// Each anchor's index in ``GnuTLSTrustList/anchors``, by the handle GnuTLS reports it by.
    private let anchorIndexByIdentity: [OpaquePointer: Int]
    /// The anchors' DER, for a trusted leaf the verification callback was not told about.
    private let anchorDER: Set<DERBytes>
    /// Presented certificates kept imported, by their DER.
    let cache: BoundedCache<DERBytes, GnuTLSCertificate>
    /// Requests' CRLs kept imported, by their DER: a few, since one can be megabytes.
    let revocationListCache: BoundedCache<DERBytes, GnuTLSRevocationList>

    /// Imports each distinct anchor once and puts them all in one trust list.
    /// - Throws: ``TrustBackendError`` naming the first anchor GnuTLS cannot import, or when the trust
    ///   list or the time hook cannot be set up.
    init(anchors: [[UInt8]], settings: GnuTLSBackend.Settings, configuration: BackendConfiguration) throws {
        let backend = settings.name
        verificationFlags = settings.verificationFlags
        checksKeyPurpose = settings.checksKeyPurpose
        revocationListAddFlags = settings.revocationListAddFlags
        guard EvaluationScope.isAvailable else {
            throw TrustBackendError(
                backend: backend,
                message: "cannot create the thread-specific slot the GnuTLS time hook reads (pthread_key_create failed); the process has run out of thread keys"
            )
        }
        var parsed: [GnuTLSCertificate] = []
        var seen: Set<DERBytes> = []
        for (position, der) in anchors.enumerated() where !seen.contains(DERBytes(der)) {
            do {
                let certificate = try GnuTLSCertificate(der: der)
                seen.insert(certificate.derBytes)
                parsed.append(certificate)
            } catch {
                throw TrustBackendError(
                    backend: backend,
                    message: "anchor \(position) (of \(anchors.count)) is not a certificate GnuTLS can import (\(error.summary)); pass each anchor as the DER bytes of one X.509 certificate",
                    native: [error.diagnostic(message: "anchor \(position)")]
                )
            }
        }
        do {
            trustList = try GnuTLSTrustList(anchors: parsed)
        } catch {
            throw TrustBackendError(
                backend: backend,
                message: "GnuTLS could not make a trust list of the \(parsed.count) anchors: \(error.name) (\(error.code)): \(error.message)",
                native: [error.diagnostic(.other, message: "gnutls_x509_trust_list_add_cas")]
            )
        }
        var indexByIdentity: [OpaquePointer: Int] = [:]
        for (index, anchor) in parsed.enumerated() {
            indexByIdentity[anchor.identity] = index
        }
        anchorIndexByIdentity = indexByIdentity
        anchorDER = seen
        cache = BoundedCache(configuration)
        // As many CRLs as certificates allowed, at most 8: an uncached configuration keeps none.
        revocationListCache = BoundedCache(capacity: min(configuration.certificateCacheCapacity, 8))
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // Any purpose only: a request's depth limit bounds the path, which GnuTLS does not let a
        // caller bound (its client limit, below, counts presented certificates), and it processes no
        // certificate policies. CRLs and soft-fail only: a trust list has no hard-fail setting.
        // BackendPreflight (GnuTLSBackend.makeEvaluator's guard) has refused an empty chain and any
        // host GnuTLS must not see (a NUL byte it would truncate at, an address of the wrong length).
        var presented: [GnuTLSCertificate] = []
        presented.reserveCapacity(request.chain.count)
        // A client imports every certificate of the Certificate message before it verifies
        // (`_gnutls_proc_x509_crt`, lib/auth/cert.c), so one it cannot import fails first.
        for (index, der) in request.chain.enumerated() {
            do throws(GnuTLSCertificate.ImportFailure) {
                presented.append(try cache.certificate(for: der, parse: GnuTLSCertificate.init(der:)))
            } catch {
                return .rejected([error.diagnostic(
                    message: "certificate \(index) of the presented chain (\(der.count) bytes) could not be imported as DER",
                    depth: index
                )])
            }
        }
        guard presented.count <= Self.maximumPresentedCertificates else {
            // GnuTLS's own documented bound, applied here because the trust-list call below does
            // not apply it (and 3.7.9's own code assumes it): a limit, labelled as one.
            var bound = GnuTLSError(GNUTLS_E_CONSTRAINT_ERROR).diagnostic(
                .other,
                message: "the presented chain has \(presented.count) certificates, more than the \(Self.maximumPresentedCertificates) a GnuTLS client verifies (gnutls_certificate_verify_peers refuses a peer list longer than the credentials' verify depth, DEFAULT_MAX_VERIFY_DEPTH by default: _gnutls_x509_cert_verify_peers, lib/cert-session.c); applied by this back end before gnutls_x509_trust_list_verify_crt2, which does not apply it"
            )
            bound.origin = .limit
            return .rejected([bound])
        }
        let purpose = checksKeyPurpose ? Self.keyPurposeOID(for: request.purpose) : nil
        var revocationLists: GnuTLSRevocationLists?
        if !request.revocationLists.isEmpty {
            do throws(VerdictError) {
                revocationLists = try GnuTLSRevocationLists.importing(request.revocationLists, cache: revocationListCache)
            } catch {
                return error.verdict
            }
        }
        let verdict = EvaluationScope.run(at: time_t(clamping: request.unixTime)) { state -> Verdict in
            guard let revocationLists else {
                return verify(presented, trustList: trustList, host: request.host, purpose: purpose, state: state)
            }
            // The anchors' trust list with the request's CRLs, as a client whose credentials were
            // given them (gnutls_certificate_set_x509_crl_mem) has: made per request, inside the
            // time scope, since GnuTLS verifies CRLs (when it does) as it adds them.
            let withCRLs: GnuTLSTrustList
            do throws(GnuTLSError) {
                withCRLs = try GnuTLSTrustList(anchors: trustList.anchors, revocationLists: revocationLists, addFlags: revocationListAddFlags)
            } catch {
                return .rejected([error.diagnostic(.other, message: "gnutls_x509_trust_list_add_crls failed on the request's \(revocationLists.count) revocation list(s)")])
            }
            return verify(presented, trustList: withCRLs, host: request.host, purpose: purpose, state: state)
        }
        return verdict ?? .failClosed(
            .other, name: "TIME_HOOK_UNAVAILABLE",
            message: "the per-thread verification time could not be set (pthread_setspecific failed), so GnuTLS would not see the request's time", origin: .harness
        )
    }

    /// The one GnuTLS call, inside the evaluation's time scope, and its verdict.
    private func verify(
        _ presented: [GnuTLSCertificate],
        trustList: GnuTLSTrustList,
        host: HostIdentity?,
        purpose: UnsafePointer<CChar>?,
        state: UnsafeMutablePointer<EvaluationScope.State>
    ) -> Verdict {
        var status: UInt32 = 0
        let result = Self.withTypedData(host: host, purpose: purpose) { data, count in
            trustList.withUnsafeList { trustList in
                GnuTLSCertificate.withUnsafeHandles(presented) { handles, size in
                    gnutls_x509_trust_list_verify_crt2(
                        trustList, handles, size, data, count, verificationFlags, &status,
                        EvaluationScope.verifyCallback
                    )
                }
            }
        }
        guard result >= 0 else {
            let error = GnuTLSError(result)
            return .rejected([error.diagnostic(
                error.isDecodingFailure ? .malformed : .other,
                message: "gnutls_x509_trust_list_verify_crt2 failed on the \(presented.count)-certificate chain"
            )])
        }
        let log = state.pointee.log
        guard status == 0 else {
            return .rejected(GnuTLSStatus(rawValue: status).diagnostics {
                Self.exceedsPathLength(constrainedPath(log, presented: presented))
            })
        }
        if let path = verifiedPath(log, presented: presented) {
            return .trusted(path: path)
        }
        // GnuTLS 3.7 reports the trusted copy of an identical leaf through the callback too
        // (`_gnutls_verify_crt_status`, lib/x509/verify.c); this covers a build that does not.
        if log.lastIndex(where: { $0.status == 0 }) == nil, anchorDER.contains(presented[0].derBytes) {
            return .trusted(path: [presented[0].der])
        }
        return .failClosed(
            .other, name: "UNEXPECTED_SUCCESS",
            message: "GnuTLS reported the chain trusted, but its verification callback did not report a path from the leaf to an anchor; rejected to fail closed", origin: .harness
        )
    }

    /// The path GnuTLS verified for a status of 0, DER, leaf first: from the presented leaf, each
    /// certificate's issuer as GnuTLS's last successful check of it reports, until an anchor. A
    /// presented certificate GnuTLS replaced by a trusted one with the same name and key, or a leaf
    /// identical to an anchor, ends at that anchor (reported once when their bytes are equal).
    /// `nil` when the log leads elsewhere or round in a circle.
    private func verifiedPath(_ log: VerificationLog, presented: [GnuTLSCertificate]) -> [[UInt8]]? {
        var path = [presented[0]]
        while path.count <= presented.count {
            let current = path[path.count - 1]
            guard let index = log.lastIndex(where: { $0.certificate == current.identity && $0.status == 0 }),
                  let issuer = log[index].issuer
            else { return nil }
            if let anchor = anchorIndexByIdentity[issuer] {
                let trusted = trustList.anchors[anchor]
                if trusted.derBytes != current.derBytes { path.append(trusted) }
                return path.map(\.der)
            }
            guard let next = presented.first(where: { $0.identity == issuer }), !path.contains(where: { $0 === next }) else {
                return nil
            }
            path.append(next)
        }
        return nil
    }

    /// The part of the path GnuTLS was verifying when it reported `GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE`:
    /// the certificate it rejected, then the certificates it had verified above it in that pass,
    /// each the issuer of the one before, up to the anchor. GnuTLS verifies from the anchor down and
    /// stops at the first failure, so these are the log's entries just before the failing one; the
    /// certificates below the failing one were not reached and are not included. Empty when the log
    /// has no such failure.
    private func constrainedPath(_ log: VerificationLog, presented: [GnuTLSCertificate]) -> [GnuTLSCertificate] {
        let bit = GNUTLS_CERT_SIGNER_CONSTRAINTS_FAILURE.rawValue
        guard let failing = log.lastIndex(where: { $0.status & bit != 0 }),
              let failed = presented.first(where: { $0.identity == log[failing].certificate })
        else { return [] }
        var path = [failed]
        var issuer = log[failing].issuer
        var index = failing - 1
        while path.count <= presented.count {
            if let issuer, let anchor = anchorIndexByIdentity[issuer] {
                path.append(trustList.anchors[anchor])
                break
            }
            guard index >= 0 else { break }
            let entry = log[index]
            // A pathLenConstraint stops GnuTLS before it looks for the issuer (`verify_crt`'s
            // `max_path`), so the failing entry may name none: the one checked before it is its issuer.
            guard entry.status == 0, issuer == nil || entry.certificate == issuer,
                  let next = presented.first(where: { $0.identity == entry.certificate }),
                  !path.contains(where: { $0 === next })
            else { break }
            path.append(next)
            issuer = entry.issuer
            index -= 1
        }
        return path
    }

    /// Whether some CA of `path` (a certificate first, then its issuers in turn, possibly ending with
    /// the anchor) has a pathLenConstraint smaller than the number of certificates between it and the
    /// first one that RFC 5280 counts: self-issued ones are not counted (§6.1.4(l)), so a rejection
    /// GnuTLS gives only because it counts them (it counts every intermediate) is not classed
    /// `pathLengthExceeded`: the rule actually broken is GnuTLS's, not the path's. The anchor's own
    /// constraint is included, as GnuTLS applies it. The first certificate may be an intermediate
    /// (``constrainedPath(_:presented:)``), which can only lower the counts: a path this calls
    /// exceeded is exceeded from its leaf too.
    static func exceedsPathLength(_ path: [GnuTLSCertificate]) -> Bool {
        var counted = 0
        for index in path.indices.dropFirst() {
            let constraints = path[index].basicConstraints
            if constraints.isCA, let limit = constraints.pathLength, counted > limit { return true }
            if !DERCertificate.isSelfIssued(path[index].der) { counted += 1 }
        }
        return false
    }

    /// The key purpose OID GnuTLS checks for `purpose`: static C storage, valid for the process.
    /// nil for ``TrustPurpose/anyPurpose``: no key purpose is passed, so GnuTLS checks no EKU.
    static func keyPurposeOID(for purpose: TrustPurpose) -> UnsafePointer<CChar>? {
        switch purpose {
        case .serverAuthentication:
            return CGnuTLS_kp_tls_www_server()
        case .anyPurpose:
            return nil
        }
    }

    /// Lends the typed data for `gnutls_x509_trust_list_verify_crt2`: the reference identity, if
    /// any, and the key purpose.
    static func withTypedData<Result>(
        host: HostIdentity?,
        purpose oid: UnsafePointer<CChar>?,
        _ body: (UnsafeMutablePointer<gnutls_typed_vdata_st>, UInt32) -> Result
    ) -> Result {
        let purpose = gnutls_typed_vdata_st(
            type: GNUTLS_DT_KEY_PURPOSE_OID,
            data: oid.map { UnsafeMutableRawPointer(mutating: $0).assumingMemoryBound(to: UInt8.self) },
            size: 0
        )
        // Two entries at most: a reference identity and the purpose, in a homogeneous tuple viewed as
        // the C array GnuTLS takes (no heap allocation per request). Without a purpose (any purpose)
        // the purpose entry is left out: the host, if any, is then the only entry.
        var entries = (purpose, purpose)
        let purposes: UInt32 = oid == nil ? 0 : 1
        func call(_ count: UInt32) -> Result {
            withUnsafeMutablePointer(to: &entries) { tuple in
                tuple.withMemoryRebound(to: gnutls_typed_vdata_st.self, capacity: 2) { body($0, count) }
            }
        }
        switch host {
        case nil:
            return call(purposes)
        case .dns(let name)?:
            return name.withCString { cName in
                // GnuTLS only reads the data; size 0 means NUL-terminated.
                entries.0 = gnutls_typed_vdata_st(
                    type: GNUTLS_DT_DNS_HOSTNAME,
                    data: UnsafeMutableRawPointer(mutating: cName).assumingMemoryBound(to: UInt8.self),
                    size: 0
                )
                return call(1 + purposes)
            }
        case .ipAddress(let bytes)?:
            return bytes.withUnsafeBufferPointer { raw in
                entries.0 = gnutls_typed_vdata_st(
                    type: GNUTLS_DT_IP_ADDRESS,
                    data: UnsafeMutablePointer(mutating: raw.baseAddress),
                    size: UInt32(raw.count)
                )
                return call(1 + purposes)
            }
        }
    }
}
