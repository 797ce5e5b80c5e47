internal import CGnuTLS
import TrustBackendKit
import TrustCore
import TrustDER
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Evaluates requests with GnuTLS against one trust list, made once from the anchors.
///
/// Each evaluation imports the presented chain, builds the path to the first anchor
/// (``PathBuilder``), and has `gnutls_x509_trust_list_verify_crt2` verify exactly that path, without
/// the anchor, at the request's time, for TLS server authentication and the request's host. The path
/// is trusted only when GnuTLS's status is 0 and GnuTLS verified it against the anchor that ends it
/// (reported by its verification callback); anything else is a rejection.
///
/// When the leaf itself is an anchor, the path is that one certificate. GnuTLS 3.7 handles a
/// one-certificate list equal to a trusted certificate only indirectly: it first verifies it against
/// its issuer if that is trusted too, and only when that fails in some ways (signer not found,
/// expired, insecure algorithm, but not an issuer that is no CA) looks the leaf up by its own
/// subject and accepts the identical trusted copy, checking then just that copy's validity period
/// and algorithm strength. A pinned leaf followed by its chain is not recognised at all. So for a
/// pinned leaf the evaluator checks what must still hold itself, with GnuTLS's functions and status
/// bits: the validity period at the request's time, the names (`gnutls_x509_crt_check_hostname2`/
/// `_check_ip`), the extended key usage (`gnutls_x509_crt_check_key_purpose`) and critical
/// extensions this GnuTLS does not support (``CriticalExtensionSupport``, asked of GnuTLS itself);
/// then GnuTLS checks the leaf against its trusted copy alone (`gnutls_x509_crt_verify`), and the
/// leaf is trusted when both agree.
///
/// When GnuTLS rejects the first path, the other candidate paths (``PathBuilder``) are verified in
/// turn, so that an anchor sharing a presented intermediate's name cannot hide the path through it.
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
/// a shared intermediate does. Within one request every presented certificate is a distinct handle,
/// as without the cache, so the verification callback still recognises the path's last certificate
/// by handle. A certificate that fails to import is never kept. The path built for a chain of kept
/// certificates is kept too (``PathCache``), unless the request's time chose it.
final class GnuTLSEvaluator: TrustEvaluator, @unchecked Sendable {
    // @unchecked Sendable: all state is immutable after init except the Mutex-guarded caches, and GnuTLS only reads the trust list and certificates when verifying.

    /// The back end's ``GnuTLSBackend/Settings`` as GnuTLS flags, for every GnuTLS call that takes
    /// them: the verification of each path, and of a pinned leaf, and its name check.
    let verificationFlags: UInt32
    /// The back end's name, for diagnostics.
    private let backendName: String
    /// Whether GnuTLS is told to ignore critical extensions it does not know, so that a pinned leaf
    /// is not held to them either.
    private let ignoresUnknownCriticalExtensions: Bool

    private let trustList: GnuTLSTrustList
    private let pathBuilder: PathBuilder
    /// The anchors carrying a critical extension this GnuTLS does not support
    /// (``CriticalExtensionSupport``): as a pinned leaf, such an anchor is rejected as GnuTLS
    /// rejects it on any other path.
    private let anchorsWithUnsupportedCriticalExtensions: Set<Int>
    /// Presented certificates kept imported, by their DER.
    let cache: BoundedCache<DERBytes, GnuTLSCertificate>
    /// Paths built for chains of kept certificates.
    private let paths: PathCache

    /// Imports each distinct anchor once and puts them all in one trust list.
    /// - Throws: ``TrustBackendError`` naming the first anchor GnuTLS cannot import, or when the trust
    ///   list or the time hook cannot be set up.
    init(anchors: [[UInt8]], settings: GnuTLSBackend.Settings, configuration: BackendConfiguration) throws {
        let backend = settings.name
        backendName = backend
        verificationFlags = settings.verificationFlags
        ignoresUnknownCriticalExtensions = settings.flags.contains(.ignoreUnknownCriticalExtensions)
        guard EvaluationScope.isAvailable else {
            throw TrustBackendError(
                backend: backend,
                message: "cannot create the thread-specific slot the GnuTLS time hook reads (pthread_key_create failed); the process has run out of thread keys"
            )
        }
        var parsed: [GnuTLSCertificate] = []
        var indexByDER: [DERBytes: Int] = [:]
        for (position, der) in anchors.enumerated() where indexByDER[DERBytes(der)] == nil {
            do {
                let certificate = try GnuTLSCertificate(der: der)
                indexByDER[certificate.derBytes] = parsed.count
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
        var indicesBySubject: [ArraySlice<UInt8>: [Int]] = [:]
        var indexByIdentity: [OpaquePointer: Int] = [:]
        for (index, anchor) in parsed.enumerated() {
            if let subject = anchor.subject {
                indicesBySubject[subject, default: []].append(index)
            }
            indexByIdentity[anchor.identity] = index
        }
        pathBuilder = PathBuilder(
            trustList: trustList,
            anchorIndexByDER: indexByDER,
            anchorIndicesBySubject: indicesBySubject,
            anchorIndexByIdentity: indexByIdentity
        )
        anchorsWithUnsupportedCriticalExtensions = Set(parsed.indices.filter {
            parsed[$0].withUnsafeHandle(CriticalExtensionSupport.hasUnsupportedCriticalExtension)
        })
        cache = BoundedCache(configuration)
        paths = PathCache(configuration)
    }

    func evaluate(_ request: EvaluationRequest) -> Verdict {
        // Any purpose only: gnutls_x509_trust_list_verify_crt2 has no depth limit (the session-level
        // gnutls_certificate_set_verify_limits counts presented certificates, not the path), takes
        // no CRLs per call and processes no certificate policies.
        // BackendPreflight (GnuTLSBackend.makeEvaluator's guard) has refused an empty chain, any host
        // GnuTLS must not see (a NUL byte it would truncate at, an address of the wrong length), the
        // features above and certificates that are not DER.
        var presented: [GnuTLSCertificate] = []
        presented.reserveCapacity(request.chain.count)
        // Whether every certificate is the cache's, so that the path built for them can be kept.
        var kept = cache.capacity > 0
        for (index, der) in request.chain.enumerated() {
            do throws(GnuTLSCertificate.ImportFailure) {
                var certificate = try cache.certificate(for: der, parse: GnuTLSCertificate.init(der:))
                if presented.contains(where: { $0 === certificate }) {
                    // The same bytes again in this chain: a handle of its own, as without the cache.
                    certificate = try GnuTLSCertificate(der: der)
                    kept = false
                }
                presented.append(certificate)
            } catch {
                return .rejected([error.diagnostic(
                    message: "certificate \(index) of the presented chain (\(der.count) bytes) could not be imported as DER",
                    depth: index
                )])
            }
        }
        let unixTime = time_t(clamping: request.unixTime)
        let purpose = Self.keyPurposeOID(for: request.purpose)
        let verdict = EvaluationScope.run(at: unixTime) { state in
            evaluate(presented, reusingPaths: kept, host: request.host, purpose: purpose, at: unixTime, state: state)
        }
        return verdict ?? .failClosed(
            .other, name: "TIME_HOOK_UNAVAILABLE",
            message: "the per-thread verification time could not be set (pthread_setspecific failed), so GnuTLS would not see the request's time"
        )
    }

    /// Everything that calls GnuTLS, inside the evaluation's time scope: the first candidate path
    /// (kept or built), and when GnuTLS rejects it, the other candidates in turn; the first GnuTLS
    /// trusts decides, and when none does, the first path's rejection is the verdict.
    private func evaluate(
        _ presented: [GnuTLSCertificate],
        reusingPaths: Bool,
        host: HostIdentity?,
        purpose: UnsafePointer<CChar>?,
        at unixTime: time_t,
        state: UnsafeMutablePointer<EvaluationScope.State>
    ) -> Verdict {
        let first: PathBuilder.Path
        if reusingPaths, let known = paths.path(for: presented) {
            first = known
        } else {
            first = pathBuilder.build(from: presented, at: unixTime)
            if reusingPaths { paths.keep(first, for: presented) }
        }
        let verdict = verify(first, presented: presented, host: host, purpose: purpose, at: unixTime, state: state)
        guard !verdict.isTrusted, !first.isOnlyCandidate else { return verdict }
        let candidates = pathBuilder.paths(from: presented, at: unixTime, limit: PathBuilder.maximumCandidates)
        let hasOthers = candidates.contains { $0.anchor != nil && ($0.anchor != first.anchor || $0.positions != first.positions) }
        if !hasOthers {
            // Nothing else to try; a chain presented again is rejected without searching (unless the
            // time chose among issuers, which PathCache does not keep anyway).
            if reusingPaths && !candidates.contains(where: \.dependsOnTime) {
                var only = first
                only.isOnlyCandidate = true
                paths.keep(only, for: presented)
            }
            return verdict
        }
        for var candidate in candidates where candidate.anchor != nil {
            // With GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN, GnuTLS cuts the list after the first
            // certificate whose issuer the trust list holds, which is what shadows a path through a
            // presented intermediate. Without it GnuTLS sorts the list and asks the trust list only
            // for the last one's issuer; when its sort leaves the candidate as it is, GnuTLS then
            // verifies exactly the candidate.
            candidate.verifiedAsSorted = candidate.certificates.count > 1
                && PathBuilder.gnutlsSortKeepsOrder(of: candidate.certificates)
            let isFirst = candidate.anchor == first.anchor && candidate.positions == first.positions
                && candidate.verifiedAsSorted == first.verifiedAsSorted
            if isFirst { continue }
            let alternative = verify(candidate, presented: presented, host: host, purpose: purpose, at: unixTime, state: state)
            if alternative.isTrusted {
                // Next time this chain is presented, the path that worked is tried first.
                if reusingPaths { paths.keep(candidate, for: presented) }
                return alternative
            }
        }
        return verdict
    }

    /// Has GnuTLS verify one candidate path: exactly its certificates against the trust list, or, for
    /// a pinned leaf, the leaf as GnuTLS treats a certificate identical to a trusted one.
    private func verify(
        _ path: PathBuilder.Path,
        presented: [GnuTLSCertificate],
        host: HostIdentity?,
        purpose: UnsafePointer<CChar>?,
        at unixTime: time_t,
        state: UnsafeMutablePointer<EvaluationScope.State>
    ) -> Verdict {
        if path.certificates.isEmpty, let anchor = path.anchor {
            return verifyPinnedLeaf(presented[0], anchor: anchor, host: host, purpose: purpose, at: unixTime)
        }
        let list = path.certificates
        let flags = path.verifiedAsSorted
            ? verificationFlags & ~GNUTLS_VERIFY_DO_NOT_ALLOW_UNSORTED_CHAIN.rawValue
            : verificationFlags
        state.pointee.lastCertificate = list.last?.identity
        state.pointee.trustedIssuer = nil
        var status: UInt32 = 0
        let result = Self.withTypedData(host: host, purpose: purpose) { data, count in
            trustList.withUnsafeList { trustList in
                GnuTLSCertificate.withUnsafeHandles(list) { handles, size in
                    gnutls_x509_trust_list_verify_crt2(
                        trustList, handles, size, data, count, flags, &status,
                        EvaluationScope.verifyCallback
                    )
                }
            }
        }
        guard result >= 0 else {
            let error = GnuTLSError(result)
            return .rejected([error.diagnostic(
                error.isDecodingFailure ? .malformed : .other,
                message: "gnutls_x509_trust_list_verify_crt2 failed on the \(list.count)-certificate path"
            )])
        }
        let verifiedAnchor = state.pointee.trustedIssuer.flatMap { pathBuilder.anchorIndexByIdentity[$0] }
        guard status == 0 else {
            let anchor = verifiedAnchor ?? path.anchor
            return .rejected(GnuTLSStatus(rawValue: status).diagnostics {
                Self.exceedsPathLength(list + (anchor.map { [trustList.anchors[$0]] } ?? []))
            })
        }
        guard path.anchor != nil, let verifiedAnchor else {
            return .failClosed(
                .other, name: "UNEXPECTED_SUCCESS",
                message: path.anchor == nil
                    ? "GnuTLS reported the path trusted although no anchor was found for it; rejected to fail closed"
                    : "GnuTLS reported the path trusted without verifying its last certificate against an anchor; rejected to fail closed"
            )
        }
        // GnuTLS picks among anchors sharing a name itself; the path ends at the one it verified against.
        var verified = list.map(\.der)
        verified.append(trustList.anchors[verifiedAnchor].der)
        return .trusted(path: verified)
    }

    /// A leaf that is itself anchor `anchor`: first what must still hold of it (``checkPinnedLeaf``),
    /// then GnuTLS's own verdict on a certificate identical to a trusted one, asked with that anchor
    /// alone (`gnutls_x509_crt_verify`, which then checks the trusted copy's validity period and
    /// algorithm strength, `check_ca_sanity` in lib/x509/verify.c). The trust list is not asked:
    /// GnuTLS 3.7 would first verify the leaf against its issuer when that is an anchor too, and fall
    /// back to the pinned copy only after some of the failures that brings (signer not found,
    /// expired, insecure algorithm), so an issuer anchor with cA FALSE or an unknown critical
    /// extension would hide the pin.
    private func verifyPinnedLeaf(
        _ leaf: GnuTLSCertificate,
        anchor: Int,
        host: HostIdentity?,
        purpose: UnsafePointer<CChar>?,
        at unixTime: time_t
    ) -> Verdict {
        if let rejection = checkPinnedLeaf(leaf, anchor: anchor, host: host, purpose: purpose, at: unixTime) {
            return rejection
        }
        var status: UInt32 = 0
        let result = leaf.withUnsafeHandle { handle in
            GnuTLSCertificate.withUnsafeHandles([trustList.anchors[anchor]]) { anchors, count in
                gnutls_x509_crt_verify(handle, anchors, count, verificationFlags, &status)
            }
        }
        guard result >= 0 else {
            let error = GnuTLSError(result)
            return .rejected([error.diagnostic(.other, message: "gnutls_x509_crt_verify failed on the pinned leaf")])
        }
        guard status == 0 else {
            return .rejected(GnuTLSStatus(rawValue: status | GNUTLS_CERT_INVALID.rawValue).diagnostics { false })
        }
        return .trusted(path: [leaf.der])
    }

    /// The checks that still apply when the leaf is itself an anchor, with GnuTLS's bits and bounds:
    /// a rejection, or `nil` when the validity period, names and purpose are all acceptable.
    private func checkPinnedLeaf(
        _ leaf: GnuTLSCertificate,
        anchor: Int,
        host: HostIdentity?,
        purpose: UnsafePointer<CChar>?,
        at unixTime: time_t
    ) -> Verdict? {
        var status: UInt32 = 0
        let notBefore = leaf.activationTime
        let notAfter = leaf.expirationTime
        if notBefore == -1 || unixTime < notBefore {
            status |= GNUTLS_CERT_NOT_ACTIVATED.rawValue
        } else if notAfter == -1 || unixTime > notAfter {
            status |= GNUTLS_CERT_EXPIRED.rawValue
        }
        let namesMatch = leaf.withUnsafeHandle { handle -> Bool in
            switch host {
            case nil:
                return true
            case .dns(let name)?:
                return name.withCString { gnutls_x509_crt_check_hostname2(handle, $0, verificationFlags) != 0 }
            case .ipAddress(let bytes)?:
                return bytes.withUnsafeBufferPointer {
                    gnutls_x509_crt_check_ip(handle, $0.baseAddress, UInt32($0.count), verificationFlags) != 0
                }
            }
        }
        if !namesMatch {
            status |= GNUTLS_CERT_UNEXPECTED_OWNER.rawValue
        }
        // Any purpose (no OID): no EKU to check.
        let purposeMatches = purpose.map { oid in leaf.withUnsafeHandle { gnutls_x509_crt_check_key_purpose($0, oid, 0) != 0 } } ?? true
        if !purposeMatches {
            status |= GNUTLS_CERT_PURPOSE_MISMATCH.rawValue
        }
        // GnuTLS checks critical extensions only for certificates it verifies, not for a trusted
        // one; RFC 5280 §4.2 says a certificate with an unrecognised critical extension MUST be
        // rejected, so the pinned leaf gets the check GnuTLS gives the same leaf on any other path.
        if !ignoresUnknownCriticalExtensions && anchorsWithUnsupportedCriticalExtensions.contains(anchor) {
            status |= GNUTLS_CERT_UNKNOWN_CRIT_EXTENSIONS.rawValue
        }
        guard status != 0 else { return nil }
        return .rejected(GnuTLSStatus(rawValue: status | GNUTLS_CERT_INVALID.rawValue).diagnostics { false })
    }

    /// Whether some CA of `path` (leaf first, anchor last) has a pathLenConstraint smaller than the
    /// number of CA certificates between it and the leaf that RFC 5280 counts: self-issued ones are
    /// not counted (§6.1.4(l)), so a rejection GnuTLS gives only because it counts them (it counts
    /// every intermediate) is not classed `pathLengthExceeded`: the rule actually broken is GnuTLS's,
    /// not the path's. The anchor's own constraint is included, as OpenSSL and GnuTLS both apply it.
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
